/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-traffic-generator.h"

#include "rifl-segmentation.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflTrafficGenerator");
NS_OBJECT_ENSURE_REGISTERED(RiflTrafficGenerator);

TypeId
RiflTrafficGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RiflTrafficGenerator")
            .SetParent<Object>()
            .SetGroupName("Rifl")
            .AddConstructor<RiflTrafficGenerator>()
            .AddAttribute("Arrival",
                          "Arrival process (RIFL paper section V.A).",
                          EnumValue(BERNOULLI),
                          MakeEnumAccessor(&RiflTrafficGenerator::m_arrival),
                          MakeEnumChecker(BERNOULLI, "Bernoulli", BURSTY, "Bursty"))
            .AddAttribute("Destinations",
                          "Uniform: i.i.d. uniform destinations over all outputs, each input "
                          "sending N x BytesPerPair (every pair gets BytesPerPair on average; "
                          "the iSLIP paper's uniform traffic). Exact: every pair gets exactly "
                          "BytesPerPair, each packet or burst going to an output still owed data "
                          "(the last flows of a run then concentrate on few outputs).",
                          EnumValue(UNIFORM),
                          MakeEnumAccessor(&RiflTrafficGenerator::m_destinations),
                          MakeEnumChecker(UNIFORM, "Uniform", EXACT, "Exact"))
            .AddAttribute("Sources",
                          "PerInput: one arrival process per input link, at most one cell per "
                          "cell time. PerFlow: one process per input-output flow with Load / N "
                          "each (one-cell packets; bursts of different flows may overlap and "
                          "queue at the source NIC).",
                          EnumValue(PER_INPUT),
                          MakeEnumAccessor(&RiflTrafficGenerator::m_sources),
                          MakeEnumChecker(PER_INPUT, "PerInput", PER_FLOW, "PerFlow"))
            .AddAttribute("Load",
                          "Offered load: fraction of cell times each input link carries a cell.",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&RiflTrafficGenerator::m_load),
                          MakeDoubleChecker<double>(0.001, 1.0))
            .AddAttribute("SizeMode",
                          "Packet sizes: Fixed (FixedBytes) or Variable (MinBytes to MaxBytes, "
                          "uniform) (section V.A).",
                          EnumValue(FIXED),
                          MakeEnumAccessor(&RiflTrafficGenerator::m_sizeMode),
                          MakeEnumChecker(FIXED, "Fixed", VARIABLE, "Variable"))
            .AddAttribute("FixedBytes",
                          "Fixed packet size in bytes (a multiple of 256 B in the paper).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RiflTrafficGenerator::m_fixedBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinBytes",
                          "Smallest variable packet size in bytes (64 B, section V.A).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RiflTrafficGenerator::m_minBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxBytes",
                          "Largest variable packet size in bytes (2048 B, section V.A).",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&RiflTrafficGenerator::m_maxBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BurstBytes",
                          "Bursty: expected bytes per burst per port (1024 B, section V.A).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RiflTrafficGenerator::m_burstBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BytesPerPair",
                          "Bytes each input sends to each output (2.5 MB = 2.5 x 2^20 B, "
                          "section V.A).",
                          UintegerValue(2621440),
                          MakeUintegerAccessor(&RiflTrafficGenerator::m_bytesPerPair),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("SegmentBytes",
                          "Layer 2 segment (cell payload) in bytes (256 B, section IV.A).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RiflTrafficGenerator::m_segment),
                          MakeUintegerChecker<uint32_t>(8, 65535));
    return tid;
}

RiflTrafficGenerator::RiflTrafficGenerator()
{
    NS_LOG_FUNCTION(this);
    m_rng = CreateObject<UniformRandomVariable>();
}

RiflTrafficGenerator::~RiflTrafficGenerator()
{
    NS_LOG_FUNCTION(this);
}

int64_t
RiflTrafficGenerator::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

double
RiflTrafficGenerator::GetMeanBytesPerPacket() const
{
    if (m_sizeMode == FIXED)
    {
        return m_fixedBytes;
    }
    return 0.5 * (m_minBytes + m_maxBytes);
}

double
RiflTrafficGenerator::GetMeanCellsPerPacket() const
{
    if (m_sizeMode == FIXED)
    {
        return static_cast<double>(RiflSegmentation::Cells(m_fixedBytes, m_segment));
    }
    double sum = 0;
    for (uint32_t b = m_minBytes; b <= m_maxBytes; ++b)
    {
        sum += static_cast<double>(RiflSegmentation::Cells(b, m_segment));
    }
    return sum / (m_maxBytes - m_minBytes + 1);
}

uint64_t
RiflTrafficGenerator::GetTotalBytes() const
{
    return m_bytesPerPair * m_ports * m_ports;
}

void
RiflTrafficGenerator::Setup(uint32_t ports)
{
    NS_LOG_FUNCTION(this << ports);
    NS_ABORT_MSG_IF(m_sizeMode == VARIABLE && m_minBytes > m_maxBytes,
                    "RiflTrafficGenerator: MinBytes > MaxBytes");
    m_ports = ports;
    const double cellsPerPkt = GetMeanCellsPerPacket();
    // Busy fraction = busy / (busy + idle) per period.
    double pktsPerPeriod = 1;
    if (m_arrival == BURSTY)
    {
        // Geometric burst (>= 1 packet) with mean m = max(1, BurstBytes / mean packet bytes).
        const double m = std::max(1.0, m_burstBytes / GetMeanBytesPerPacket());
        m_burstQ = 1.0 / m;
        pktsPerPeriod = m;
    }
    const double busy = pktsPerPeriod * cellsPerPkt;
    const double idle = busy * (1 - m_load) / m_load;
    m_gapQ = 1.0 / (1.0 + idle);
    m_inputs.assign(ports, Input());
    for (auto& s : m_inputs)
    {
        s.remaining.assign(ports, m_bytesPerPair);
        s.total = m_bytesPerPair * ports;
        s.active.resize(ports);
        for (uint32_t d = 0; d < ports; ++d)
        {
            s.active[d] = static_cast<uint16_t>(d);
        }
    }
    m_activeInputs = ports;
    for (uint32_t i = 0; i < ports; ++i)
    {
        m_inputs[i].nextStart = Geometric(m_gapQ);
    }
    if (m_sources == PER_FLOW)
    {
        // Each flow: bursts of a geometric number of cells (mean m), idle gaps with the mean
        // that gives Load / N.
        const double m =
            m_arrival == BURSTY ? std::max(1.0, m_burstBytes / double(m_segment)) : 1.0;
        m_burstQ = 1.0 / m;
        const double rho = m_load / ports;
        m_gapQ = 1.0 / (1.0 + m * (1 - rho) / rho);
        m_flows.assign(std::size_t(ports) * ports, Flow());
        for (auto& f : m_flows)
        {
            f.remaining = m_bytesPerPair;
            f.nextStart = Geometric(m_gapQ);
        }
        m_flowCursor.assign(ports, 0);
        m_flowSlot.assign(ports, ~uint64_t(0));
        m_flowsLeft.assign(ports, ports);
    }
}

uint64_t
RiflTrafficGenerator::Geometric(double q)
{
    if (q >= 1.0)
    {
        return 0;
    }
    const double u = m_rng->GetValue();
    return static_cast<uint64_t>(std::floor(std::log1p(-u) / std::log1p(-q)));
}

uint64_t
RiflTrafficGenerator::DrawSize()
{
    if (m_sizeMode == FIXED)
    {
        return m_fixedBytes;
    }
    const uint32_t span = m_maxBytes - m_minBytes + 1;
    uint32_t k = static_cast<uint32_t>(m_rng->GetValue() * span);
    return m_minBytes + std::min(k, span - 1);
}

void
RiflTrafficGenerator::Retire(Input& s, std::size_t k)
{
    s.active[k] = s.active.back();
    s.active.pop_back();
}

void
RiflTrafficGenerator::StartPacket(uint32_t in, Input& s)
{
    (void)in;
    if (m_destinations == UNIFORM)
    {
        if (s.burstLeft == 0)
        {
            std::size_t k = static_cast<std::size_t>(m_rng->GetValue() * m_ports);
            s.dst = static_cast<uint16_t>(std::min<std::size_t>(k, m_ports - 1));
            s.burstLeft = m_arrival == BURSTY ? static_cast<uint32_t>(Geometric(m_burstQ)) : 0;
        }
        else
        {
            --s.burstLeft;
        }
        const uint64_t size = std::min<uint64_t>(DrawSize(), s.total);
        s.total -= size;
        if (s.total == 0)
        {
            s.active.clear();
            s.burstLeft = 0;
        }
        s.pktBytes = size;
        s.busy = true;
        return;
    }
    if (s.burstLeft == 0 || s.remaining[s.dst] == 0)
    {
        // A new packet (Bernoulli) or burst (Bursty): uniform over the outputs still owed data.
        const std::size_t n = s.active.size();
        std::size_t k = static_cast<std::size_t>(m_rng->GetValue() * n);
        k = std::min(k, n - 1);
        s.dst = s.active[k];
        s.burstLeft = m_arrival == BURSTY ? static_cast<uint32_t>(Geometric(m_burstQ)) : 0;
    }
    else
    {
        --s.burstLeft;
    }
    const uint64_t size = std::min<uint64_t>(DrawSize(), s.remaining[s.dst]);
    s.remaining[s.dst] -= size;
    if (s.remaining[s.dst] == 0)
    {
        for (std::size_t k = 0; k < s.active.size(); ++k)
        {
            if (s.active[k] == s.dst)
            {
                Retire(s, k);
                break;
            }
        }
        s.burstLeft = 0;
    }
    s.pktBytes = size;
    s.busy = true;
}

bool
RiflTrafficGenerator::NextFlow(uint32_t in, uint64_t slot, RiflCell& cell)
{
    if (m_flowSlot[in] != slot)
    {
        m_flowSlot[in] = slot;
        m_flowCursor[in] = 0;
    }
    const uint32_t n = m_ports;
    for (uint32_t d = m_flowCursor[in]; d < n; ++d)
    {
        Flow& f = m_flows[std::size_t(in) * n + d];
        if (f.remaining == 0)
        {
            continue;
        }
        if (f.cellsLeft == 0)
        {
            if (slot < f.nextStart)
            {
                continue;
            }
            f.cellsLeft = 1 + static_cast<uint32_t>(Geometric(m_burstQ));
        }
        const uint32_t valid = static_cast<uint32_t>(std::min<uint64_t>(f.remaining, m_segment));
        cell.gen = static_cast<uint32_t>(slot);
        cell.dst = static_cast<uint16_t>(d);
        cell.bytes = static_cast<uint16_t>(valid);
        f.remaining -= valid;
        m_generatedBytes += valid;
        ++m_generatedCells;
        if (--f.cellsLeft == 0)
        {
            f.nextStart = slot + 1 + Geometric(m_gapQ);
        }
        if (f.remaining == 0)
        {
            f.cellsLeft = 0;
            if (--m_flowsLeft[in] == 0)
            {
                --m_activeInputs;
            }
        }
        m_flowCursor[in] = d + 1;
        return true;
    }
    m_flowCursor[in] = n;
    return false;
}

bool
RiflTrafficGenerator::Next(uint32_t in, uint64_t slot, RiflCell& cell)
{
    if (m_sources == PER_FLOW)
    {
        return NextFlow(in, slot, cell);
    }
    Input& s = m_inputs[in];
    if (s.lastSlot == slot + 1)
    {
        return false; // one cell per cell time on the input link
    }
    if (!s.busy)
    {
        if (s.done || slot < s.nextStart)
        {
            return false;
        }
        StartPacket(in, s);
    }
    const uint32_t valid =
        static_cast<uint32_t>(std::min<uint64_t>(s.pktBytes, static_cast<uint64_t>(m_segment)));
    s.lastSlot = slot + 1;
    cell.gen = static_cast<uint32_t>(slot);
    cell.dst = s.dst;
    cell.bytes = static_cast<uint16_t>(valid);
    s.pktBytes -= valid;
    m_generatedBytes += valid;
    ++m_generatedCells;
    if (s.pktBytes == 0)
    {
        s.busy = false;
        if (s.active.empty())
        {
            s.done = true;
            --m_activeInputs;
        }
        else if (s.burstLeft > 0 && (m_destinations == UNIFORM || s.remaining[s.dst] > 0))
        {
            s.nextStart = slot + 1; // the burst continues back to back
        }
        else
        {
            s.burstLeft = 0;
            s.nextStart = slot + 1 + Geometric(m_gapQ);
        }
    }
    return true;
}

} // namespace ns3
