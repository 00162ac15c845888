/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-dispatcher.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveDispatcher");
NS_OBJECT_ENSURE_REGISTERED(CollectiveDispatcher);

TypeId
CollectiveDispatcher::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CollectiveDispatcher")
                            .SetParent<Object>()
                            .SetGroupName("Collective")
                            .AddConstructor<CollectiveDispatcher>();
    return tid;
}

CollectiveDispatcher::CollectiveDispatcher()
{
    NS_LOG_FUNCTION(this);
}

CollectiveDispatcher::~CollectiveDispatcher()
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveDispatcher::DoDispose()
{
    m_instances.clear();
    m_deliveredCb = FabricEndpoint::MessageCallback();
    m_completedCb = FabricEndpoint::MessageCallback();
    Object::DoDispose();
}

void
CollectiveDispatcher::Install(const std::vector<Ptr<FabricEndpoint>>& endpoints)
{
    NS_LOG_FUNCTION(this << endpoints.size());
    for (const auto& ep : endpoints)
    {
        ep->SetDeliveredCallback(MakeCallback(&CollectiveDispatcher::Delivered, this));
        ep->SetCompletedCallback(MakeCallback(&CollectiveDispatcher::Completed, this));
    }
}

uint32_t
CollectiveDispatcher::Register(Ptr<CollectiveExecutor> executor)
{
    NS_ABORT_MSG_IF(m_instances.size() > MAX_INSTANCE,
                    "more than " << MAX_INSTANCE + 1 << " collective instances in one run");
    m_instances.push_back(executor);
    return m_instances.size() - 1;
}

uint32_t
CollectiveDispatcher::GetNInstances() const
{
    return m_instances.size();
}

Ptr<CollectiveExecutor>
CollectiveDispatcher::GetInstance(uint32_t i) const
{
    NS_ASSERT(i < m_instances.size());
    return m_instances[i];
}

void
CollectiveDispatcher::SetDeliveredCallback(FabricEndpoint::MessageCallback cb)
{
    m_deliveredCb = cb;
}

void
CollectiveDispatcher::SetCompletedCallback(FabricEndpoint::MessageCallback cb)
{
    m_completedCb = cb;
}

uint64_t
CollectiveDispatcher::MakeCookie(uint32_t instance, uint32_t step, uint32_t chunk, uint8_t tag)
{
    NS_ABORT_MSG_IF(instance > MAX_INSTANCE || step > MAX_STEP || chunk > MAX_CHUNK || tag > 15,
                    "collective cookie field out of range");
    return COLLECTIVE_FLAG | (uint64_t(instance) << 48) | (uint64_t(step) << 24) |
           (uint64_t(chunk) << 4) | tag;
}

void
CollectiveDispatcher::Delivered(const FabricMessage& m)
{
    if (IsCollective(m.cookie))
    {
        const uint32_t i = InstanceOf(m.cookie);
        NS_ABORT_MSG_IF(i >= m_instances.size(), "message for unknown collective " << i);
        m_instances[i]->HandleDelivered(m);
    }
    if (!m_deliveredCb.IsNull())
    {
        m_deliveredCb(m);
    }
}

void
CollectiveDispatcher::Completed(const FabricMessage& m)
{
    if (IsCollective(m.cookie))
    {
        const uint32_t i = InstanceOf(m.cookie);
        NS_ABORT_MSG_IF(i >= m_instances.size(), "message for unknown collective " << i);
        m_instances[i]->HandleCompleted(m);
    }
    if (!m_completedCb.IsNull())
    {
        m_completedCb(m);
    }
}

} // namespace ns3
