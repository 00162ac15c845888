/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-check-scheduler.h"

#include "fabric-invariant-check.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricCheckScheduler");
NS_OBJECT_ENSURE_REGISTERED(FabricCheckScheduler);

TypeId
FabricCheckScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricCheckScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Fabric")
                            .AddConstructor<FabricCheckScheduler>()
                            .AddAttribute("Inner",
                                          "TypeId name of the scheduler that holds the events.",
                                          StringValue("ns3::MapScheduler"),
                                          MakeStringAccessor(&FabricCheckScheduler::m_innerType),
                                          MakeStringChecker());
    return tid;
}

FabricCheckScheduler::FabricCheckScheduler()
{
    NS_LOG_FUNCTION(this);
}

FabricCheckScheduler::~FabricCheckScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
FabricCheckScheduler::DoDispose()
{
    m_inner = nullptr;
    Scheduler::DoDispose();
}

void
FabricCheckScheduler::Start()
{
    if (m_inner)
    {
        return;
    }
    ObjectFactory f;
    f.SetTypeId(m_innerType);
    m_inner = f.Create<Scheduler>();
    NS_ABORT_MSG_IF(!m_inner, "FabricCheckScheduler: " << m_innerType << " is no Scheduler");
}

void
FabricCheckScheduler::Insert(const Event& ev)
{
    Start();
    ++m_checks;
    FabricInvariantCheck::Count();
    const int64_t ts = static_cast<int64_t>(ev.key.m_ts);
    if (ts < m_now)
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::EVENT_TIME,
                                   std::string("scheduler"),
                                   "event " + std::to_string(ev.key.m_uid) + " scheduled at " +
                                       std::to_string(ts) + " ps, " + std::to_string(m_now - ts) +
                                       " ps before the present (a negative delay)");
    }
    m_inner->Insert(ev);
}

bool
FabricCheckScheduler::IsEmpty() const
{
    return !m_inner || m_inner->IsEmpty();
}

Scheduler::Event
FabricCheckScheduler::PeekNext() const
{
    return m_inner->PeekNext();
}

Scheduler::Event
FabricCheckScheduler::RemoveNext()
{
    Event ev = m_inner->RemoveNext();
    ++m_checks;
    FabricInvariantCheck::Count();
    const int64_t ts = static_cast<int64_t>(ev.key.m_ts);
    if (ts < m_now)
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::EVENT_TIME,
                                   std::string("scheduler"),
                                   "event " + std::to_string(ev.key.m_uid) + " of " +
                                       std::to_string(ts) + " ps comes out after one of " +
                                       std::to_string(m_now) + " ps (time went backwards)");
    }
    m_now = ts;
    return ev;
}

void
FabricCheckScheduler::Remove(const Event& ev)
{
    m_inner->Remove(ev);
}

} // namespace ns3
