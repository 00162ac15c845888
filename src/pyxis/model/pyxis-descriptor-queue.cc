/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-descriptor-queue.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisDescriptorQueue");
NS_OBJECT_ENSURE_REGISTERED(PyxisDescriptorQueue);

TypeId
PyxisDescriptorQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisDescriptorQueue")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisDescriptorQueue>()
            .AddAttribute("QueueId",
                          "Queue id in the cluster (Pyxis spec Table 11-1), for traces.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisDescriptorQueue::m_queue),
                          MakeUintegerChecker<uint32_t>(0, 63))
            .AddTraceSource("ListFetched",
                            "The head list was fully fetched and the head advanced (queue, head).",
                            MakeTraceSourceAccessor(&PyxisDescriptorQueue::m_listFetchedTrace),
                            "ns3::PyxisDescriptorQueue::ListTracedCallback");
    return tid;
}

PyxisDescriptorQueue::PyxisDescriptorQueue()
{
    NS_LOG_FUNCTION(this);
}

PyxisDescriptorQueue::~PyxisDescriptorQueue()
{
    NS_LOG_FUNCTION(this);
}

bool
PyxisDescriptorQueue::TryEnqueue(const std::vector<PyxisTrip>& list, std::string& error)
{
    NS_LOG_FUNCTION(this << list.size());
    if (list.empty())
    {
        error = "an empty descriptor list (its length is N-1 encoded, 11.5.1.1)";
        return false;
    }
    if (IsFull())
    {
        std::ostringstream os;
        os << "the ring of " << RING << " descriptor lists is full (head " << m_head << ", tail "
           << m_tail << ", Pyxis spec 11.5.1)";
        error = os.str();
        return false;
    }
    m_ring[m_tail & 0x3].assign(list.begin(), list.end());
    m_tail = (m_tail + 1) & 0x7;
    return true;
}

bool
PyxisDescriptorQueue::HasTrip() const
{
    return m_head != m_tail;
}

PyxisTrip
PyxisDescriptorQueue::Pop()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(HasTrip(), "Pop on an empty descriptor queue");
    std::deque<PyxisTrip>& list = m_ring[m_head & 0x3];
    PyxisTrip trip = list.front();
    list.pop_front();
    if (list.empty())
    {
        m_head = (m_head + 1) & 0x7;
        NS_LOG_LOGIC("queue " << m_queue << " list fetched, head " << m_head);
        m_listFetchedTrace(m_queue, m_head);
    }
    return trip;
}

std::vector<PyxisTrip>
PyxisDescriptorQueue::Flush()
{
    NS_LOG_FUNCTION(this);
    std::vector<PyxisTrip> out;
    while (HasTrip())
    {
        out.push_back(Pop());
    }
    return out;
}

} // namespace ns3
