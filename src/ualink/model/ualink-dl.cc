/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-dl.h"

#include "ualink-phy.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkDl");
NS_OBJECT_ENSURE_REGISTERED(UalinkDl);

TypeId
UalinkDl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkDl")
            .SetParent<Object>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkDl>()
            .AddAttribute("ReplayBufferFlits",
                          "Tx replay buffer in DL flits: at most 255 unacknowledged (section "
                          "6.6); it should cover the link round trip (section 6.6.7).",
                          UintegerValue(MAX_UNACKED_FLITS),
                          MakeUintegerAccessor(&UalinkDl::m_bufferFlits),
                          MakeUintegerChecker<uint32_t>(1, MAX_UNACKED_FLITS))
            .AddAttribute("AckTimeoutFlits",
                          "Tx_ack_time_out: flit times without ack progress before the link goes "
                          "down (section 6.6.5.8: 40,000).",
                          UintegerValue(40000),
                          MakeUintegerAccessor(&UalinkDl::m_ackTimeoutFlits),
                          MakeUintegerChecker<uint32_t>(1, (1u << 24) - 1))
            .AddAttribute("ExplicitInterval",
                          "An explicit flit header every this many flits (section 6.6.1: 7); the "
                          "others carry Acks, so acks leave with the next flit.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&UalinkDl::m_explicitInterval),
                          MakeUintegerChecker<uint32_t>(1, 7))
            .AddAttribute("ReplayRequestCopies",
                          "Times a replay request is sent, one per codeword group (6.6.1: 3).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&UalinkDl::m_replayCopies),
                          MakeUintegerChecker<uint32_t>(1, 3))
            .AddAttribute("ReplayIgnoreFlits",
                          "Rx_replay_ignore_count: flits during which further replay requests "
                          "are ignored after the first (section 6.6.1: 12).",
                          UintegerValue(12),
                          MakeUintegerAccessor(&UalinkDl::m_ignoreFlits),
                          MakeUintegerChecker<uint32_t>(1, 15))
            .AddAttribute("ReplayLimitFlits",
                          "Rx_replay_limit: unexpected flits after which the receiver asks for "
                          "the replay again (section 6.6.4.6: 50; should be 2 x RTT).",
                          UintegerValue(50),
                          MakeUintegerAccessor(&UalinkDl::m_replayLimit),
                          MakeUintegerChecker<uint32_t>(1, 255));
    return tid;
}

UalinkDl::UalinkDl()
{
    NS_LOG_FUNCTION(this);
}

UalinkDl::~UalinkDl()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkDl::Configure(Ptr<FabricRetryEngine> engine,
                    Ptr<const UalinkPhy> phy,
                    uint32_t dlFlitsPerUnit) const
{
    NS_LOG_FUNCTION(this << engine << phy << dlFlitsPerUnit);
    NS_ABORT_MSG_IF(dlFlitsPerUnit == 0, "UalinkDl: a retry unit holds at least one DL flit");
    const Time flit = phy->GetSlotTime();
    const uint32_t window = std::max<uint32_t>(1, m_bufferFlits / dlFlitsPerUnit);
    engine->SetAttribute("Mode", EnumValue(FabricRetryEngine::ACK_NAK));
    engine->SetAttribute("Window", UintegerValue(window));
    engine->SetAttribute("SequenceBits", UintegerValue(SEQUENCE_BITS));
    // Acks ride in every command flit header: one per received unit, in no wire time.
    engine->SetAttribute("AckInterval", UintegerValue(1));
    engine->SetAttribute("AckDelay", TimeValue(Time(0)));
    engine->SetAttribute("ControlFrameBytes", UintegerValue(0));
    // Replay requests: 3 copies, one per codeword group of the FEC interleave.
    engine->SetAttribute("NakCopies", UintegerValue(m_replayCopies));
    engine->SetAttribute("NakCopyInterval",
                         TimeValue(flit * static_cast<int64_t>(phy->GetFecInterleave())));
    engine->SetAttribute("NakIgnoreWindow", TimeValue(flit * static_cast<int64_t>(m_ignoreFlits)));
    engine->SetAttribute("NakRepeat", TimeValue(flit * static_cast<int64_t>(m_replayLimit)));
    // Tx ack timeout: the link goes down (no replay timer in UALink).
    engine->SetAttribute("ReplayTimeout",
                         TimeValue(flit * static_cast<int64_t>(m_ackTimeoutFlits)));
    engine->SetAttribute("TimeoutAction", EnumValue(FabricRetryEngine::LINK_DOWN));
}

} // namespace ns3
