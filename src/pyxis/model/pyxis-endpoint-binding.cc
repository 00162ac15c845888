/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-endpoint-binding.h"

#include "pyxis-chip.h"

#include "ns3/abort.h"
#include "ns3/fabric-endpoint.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisEndpointBinding");
NS_OBJECT_ENSURE_REGISTERED(PyxisEndpointBinding);

TypeId
PyxisEndpointBinding::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisEndpointBinding")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisEndpointBinding>()
            .AddAttribute("TrafficClass",
                          "Traffic class of the RDMA messages (the spec's RDMA OQs are the cell "
                          "fabric's; on another fabric every RDMA job uses this class).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisEndpointBinding::m_tclass),
                          MakeUintegerChecker<uint8_t>());
    return tid;
}

PyxisEndpointBinding::PyxisEndpointBinding()
{
    NS_LOG_FUNCTION(this);
}

PyxisEndpointBinding::~PyxisEndpointBinding()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisEndpointBinding::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_tx.clear();
    m_rxWaiting.clear();
    m_unclaimed.clear();
    m_chip = nullptr;
    m_endpoint = nullptr;
    Object::DoDispose();
}

uint64_t
PyxisEndpointBinding::MakeCookie(uint32_t srcCluster,
                                 uint32_t dstCluster,
                                 uint32_t tjid,
                                 uint32_t rjid)
{
    return COOKIE_FLAG | (static_cast<uint64_t>(srcCluster & 0xFF) << 24) |
           (static_cast<uint64_t>(dstCluster & 0xFF) << 16) | ((tjid & 0xFF) << 8) | (rjid & 0xFF);
}

bool
PyxisEndpointBinding::IsPyxisCookie(uint64_t cookie)
{
    // bit 63 marks the collective module's messages, whatever their other bits
    return (cookie >> 62) == 1;
}

void
PyxisEndpointBinding::Bind(Ptr<PyxisChip> chip,
                           Ptr<FabricEndpoint> endpoint,
                           const std::vector<uint32_t>& accelerators)
{
    NS_LOG_FUNCTION(this << chip << endpoint);
    NS_ABORT_MSG_IF(!chip || !endpoint, "PyxisEndpointBinding: a chip and an endpoint are needed");
    NS_ABORT_MSG_IF(chip->GetChipId() >= accelerators.size() ||
                        accelerators[chip->GetChipId()] != endpoint->GetAcceleratorId(),
                    "PyxisEndpointBinding: chip " << chip->GetChipId() << " is not on accelerator "
                                                  << endpoint->GetAcceleratorId());
    m_chip = chip;
    m_endpoint = endpoint;
    m_accelerators = accelerators;
    m_chipOf.clear();
    for (uint32_t c = 0; c < accelerators.size(); ++c)
    {
        NS_ABORT_MSG_IF(!m_chipOf.emplace(accelerators[c], c).second,
                        "PyxisEndpointBinding: accelerator " << accelerators[c]
                                                             << " holds two chips");
    }
    chip->Build();
    m_voqs = CellFabricVoqTable(chip->GetClusters());
    m_voqs.SetDefaultMap();
    chip->SetRdmaJobHandler(MakeCallback(&PyxisEndpointBinding::Handle, this));
    endpoint->TraceConnectWithoutContext("Delivered",
                                         MakeCallback(&PyxisEndpointBinding::Delivered, this));
    endpoint->TraceConnectWithoutContext("Completed",
                                         MakeCallback(&PyxisEndpointBinding::Completed, this));
}

uint32_t
PyxisEndpointBinding::GetVoq(uint32_t chip, uint32_t cluster, uint32_t oq) const
{
    if (chip >= m_accelerators.size())
    {
        return UINT32_MAX; // no endpoint for that chip
    }
    const uint32_t v = m_voqs.GetDefaultVoq(chip, cluster, oq);
    return v == CellFabricVoqTable::UNMAPPED ? UINT32_MAX : v;
}

uint32_t
PyxisEndpointBinding::GetOpenJobs() const
{
    std::size_t n = m_tx.size();
    for (const auto& [key, list] : m_rxWaiting)
    {
        n += list.size();
    }
    return n;
}

uint32_t
PyxisEndpointBinding::GetUnclaimedMessages() const
{
    std::size_t n = 0;
    for (const auto& [key, list] : m_unclaimed)
    {
        n += list.size();
    }
    return n;
}

CellFabricVoqTable::Target
PyxisEndpointBinding::Resolve(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip) const
{
    CellFabricVoqTable::Target t;
    std::string error;
    if (m_voqs.Lookup(trip.voq, t, error) && t.chip >= m_accelerators.size())
    {
        error = "VOQ " + std::to_string(trip.voq) + " leads to chip " + std::to_string(t.chip) +
                ", which has no endpoint";
    }
    NS_ABORT_MSG_UNLESS(error.empty(),
                        "PyxisEndpointBinding: chip "
                            << m_chip->GetChipId() << " cluster " << engine->GetCluster()
                            << " RDMA " << (engine->IsTx() ? "Tx" : "Rx") << " trip " << trip.tripId
                            << ": " << error);
    return t;
}

void
PyxisEndpointBinding::Handle(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    if (engine->IsTx())
    {
        PostTx(engine, trip);
    }
    else
    {
        PostRx(engine, trip);
    }
}

void
PyxisEndpointBinding::PostTx(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip)
{
    const CellFabricVoqTable::Target t = Resolve(engine, trip);
    const uint64_t id =
        m_endpoint->Send(m_accelerators[t.chip],
                         trip.bytes,
                         m_tclass,
                         MakeCookie(engine->GetCluster(), t.cluster, trip.tjid, trip.rjid));
    m_tx[id] = Open{engine, trip.tripId, trip.bytes};
    m_stats.txPosted++;
}

void
PyxisEndpointBinding::PostRx(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip)
{
    // the message VOQ leads back to the sender's chip and cluster
    const CellFabricVoqTable::Target t = Resolve(engine, trip);
    const Key key{t.chip, t.cluster, engine->GetCluster(), trip.tjid, trip.rjid};
    const Open o{engine, trip.tripId, trip.bytes};
    m_stats.rxPosted++;
    const auto it = m_unclaimed.find(key);
    if (it == m_unclaimed.end())
    {
        m_rxWaiting[key].push_back(o);
        return;
    }
    const uint64_t bytes = it->second.front();
    it->second.pop_front();
    if (it->second.empty())
    {
        m_unclaimed.erase(it);
    }
    m_stats.early++;
    CompleteRx(o, bytes);
}

void
PyxisEndpointBinding::CompleteRx(const Open& o, uint64_t bytes)
{
    NS_ABORT_MSG_IF(bytes != o.bytes,
                    "PyxisEndpointBinding: chip " << m_chip->GetChipId() << " cluster "
                                                  << o.engine->GetCluster() << " RDMA Rx trip "
                                                  << o.tripId << " of " << o.bytes
                                                  << " B matched a message of " << bytes << " B");
    m_stats.rxCompleted++;
    m_stats.rxBytes += bytes;
    o.engine->CompleteJob(o.tripId);
}

void
PyxisEndpointBinding::Delivered(const FabricMessage& m)
{
    if (!IsPyxisCookie(m.cookie))
    {
        return;
    }
    NS_LOG_FUNCTION(this << m.src << m.id << m.cookie);
    const auto src = m_chipOf.find(m.src);
    NS_ABORT_MSG_IF(src == m_chipOf.end(),
                    "PyxisEndpointBinding: chip " << m_chip->GetChipId()
                                                  << ": an RDMA message from accelerator " << m.src
                                                  << ", which holds no chip");
    const Key key{src->second,
                  static_cast<uint32_t>((m.cookie >> 24) & 0xFF),
                  static_cast<uint32_t>((m.cookie >> 16) & 0xFF),
                  static_cast<uint32_t>((m.cookie >> 8) & 0xFF),
                  static_cast<uint32_t>(m.cookie & 0xFF)};
    const auto it = m_rxWaiting.find(key);
    if (it == m_rxWaiting.end())
    {
        m_unclaimed[key].push_back(m.bytes);
        return;
    }
    const Open o = it->second.front();
    it->second.pop_front();
    if (it->second.empty())
    {
        m_rxWaiting.erase(it);
    }
    CompleteRx(o, m.bytes);
}

void
PyxisEndpointBinding::Completed(const FabricMessage& m)
{
    if (!IsPyxisCookie(m.cookie))
    {
        return;
    }
    NS_LOG_FUNCTION(this << m.dst << m.id);
    const auto it = m_tx.find(m.id);
    NS_ABORT_MSG_IF(it == m_tx.end(),
                    "PyxisEndpointBinding: chip " << m_chip->GetChipId()
                                                  << ": completion of RDMA message " << m.id
                                                  << ", which no trip sent");
    const Open o = it->second;
    m_tx.erase(it);
    m_stats.txCompleted++;
    m_stats.txBytes += o.bytes;
    o.engine->CompleteJob(o.tripId);
}

} // namespace ns3
