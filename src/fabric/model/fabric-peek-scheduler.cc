/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-peek-scheduler.h"

#include "fabric-clock.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricPeekScheduler");
NS_OBJECT_ENSURE_REGISTERED(FabricPeekScheduler);

FabricPeekScheduler* FabricPeekScheduler::m_installed = nullptr;

TypeId
FabricPeekScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricPeekScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Fabric")
                            .AddConstructor<FabricPeekScheduler>()
                            .AddAttribute("Inner",
                                          "Factory of the scheduler that holds the events.",
                                          ObjectFactoryValue(ObjectFactory("ns3::MapScheduler")),
                                          MakeObjectFactoryAccessor(&FabricPeekScheduler::m_inner),
                                          MakeObjectFactoryChecker());
    return tid;
}

FabricPeekScheduler::FabricPeekScheduler()
{
    NS_LOG_FUNCTION(this);
    // Simulator::SetScheduler creates the new scheduler before it releases the old one.
    m_installed = this;
}

FabricPeekScheduler::~FabricPeekScheduler()
{
    NS_LOG_FUNCTION(this);
    if (m_installed == this)
    {
        m_installed = nullptr;
    }
}

FabricPeekScheduler*
FabricPeekScheduler::GetInstalled()
{
    return m_installed;
}

void
FabricPeekScheduler::DoDispose()
{
    m_events = nullptr;
    // Object deletes dispose first, so this runs before the scheduler goes away.
    FabricClock::Reset(this);
    Scheduler::DoDispose();
}

void
FabricPeekScheduler::Start()
{
    if (m_events)
    {
        return;
    }
    m_events = m_inner.Create<Scheduler>();
    NS_ABORT_MSG_IF(!m_events,
                    "FabricPeekScheduler: " << m_inner.GetTypeId().GetName() << " is no Scheduler");
}

void
FabricPeekScheduler::Insert(const Event& ev)
{
    Start();
    m_events->Insert(ev);
}

bool
FabricPeekScheduler::IsEmpty() const
{
    return !m_events || m_events->IsEmpty();
}

Scheduler::Event
FabricPeekScheduler::PeekNext() const
{
    return m_events->PeekNext();
}

Scheduler::Event
FabricPeekScheduler::RemoveNext()
{
    // The simulator runs the event it takes from here at the event's time stamp (FabricClock).
    const Event ev = m_events->RemoveNext();
    FabricClock::Set(this, ev.key.m_ts);
    return ev;
}

void
FabricPeekScheduler::Remove(const Event& ev)
{
    m_events->Remove(ev);
}

bool
FabricPeekScheduler::HasEventAt(uint64_t ts) const
{
    return !IsEmpty() && m_events->PeekNext().key.m_ts == ts;
}

} // namespace ns3
