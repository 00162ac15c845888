/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-pod-builder.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/ualink-switch.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkPodBuilder");

void
UalinkPodBuilder::Build(const Scenario::Pod& pod,
                        NodeContainer& accNodes,
                        std::vector<Ptr<FabricEndpoint>>& endpoints,
                        std::vector<std::vector<Ptr<FabricNetDevice>>>& accDevices,
                        std::vector<PodTopology::Transmitter>& transmitters,
                        std::vector<Ptr<UalinkSwitch>>& switches)
{
    NS_LOG_FUNCTION(pod.accelerators << pod.planes);
    const Scenario::Ualink& u = pod.ualink;
    UalinkHelper h;
    h.SetPhyAttribute("Lanes", UintegerValue(u.Lanes()));
    h.SetPhyAttribute("LaneRate",
                      DataRateValue(DataRate(u.laneRate == "100g" ? "106.25Gbps" : "212.5Gbps")));
    h.SetPhyAttribute("FecInterleave", UintegerValue(u.fecInterleave));
    h.SetPhyAttribute("FecDecodeLatency", TimeValue(pod.link.fecLatency));
    const std::string& cable = pod.link.cable;
    h.SetChannelAttribute("CableType",
                          EnumValue(cable == "twinax"        ? FabricChannel::TWINAX
                                    : cable == "single-mode" ? FabricChannel::SINGLE_MODE
                                    : cable == "hollow-core" ? FabricChannel::HOLLOW_CORE
                                                             : FabricChannel::DIRECT));
    h.SetChannelAttribute("CableLength", DoubleValue(pod.link.lengthM));
    h.SetChannelAttribute("Delay", TimeValue(pod.link.delay));
    h.SetChannelAttribute("CodewordErrorRate", DoubleValue(pod.link.codewordErrorRate));
    h.SetChannelAttribute("BitErrorRate", DoubleValue(pod.link.ber));
    h.SetEndpointAttribute("CompleterLatency", TimeValue(u.completerLatency));
    h.SetEndpointAttribute("WatchdogTimeout", TimeValue(u.watchdog));
    h.SetEndpointAttribute("StationResetDelay", TimeValue(u.stationReset));
    h.SetSwitchAttribute("PinToPinLatency", TimeValue(u.switchLatency));
    h.SetTxQueueAttribute("ReqCmdCredits", UintegerValue(u.reqCmdCredits));
    h.SetTxQueueAttribute("RspCmdCredits", UintegerValue(u.rspCmdCredits));
    h.SetTxQueueAttribute("ReqDataCredits", UintegerValue(u.reqDataCredits));
    h.SetTxQueueAttribute("RspDataCredits", UintegerValue(u.rspDataCredits));
    for (const char* c : {"ReqCmdVcCredits", "RspCmdVcCredits"})
    {
        h.SetTxQueueAttribute(c, UintegerValue(u.vcCmdCredits));
    }
    for (const char* c : {"ReqDataVcCredits", "RspDataVcCredits"})
    {
        h.SetTxQueueAttribute(c, UintegerValue(u.vcDataCredits));
    }
    h.SetTxQueueAttribute("SharedDataBuffer", BooleanValue(u.sharedDataBuffer));
    h.SetTxQueueAttribute("InitialCreditRelease", BooleanValue(u.initialCreditRelease));
    h.SetUpliAttribute("Mode", EnumValue(u.upli == "tdm" ? UalinkUpli::TDM : UalinkUpli::IDEAL));
    h.SetUpliAttribute("ClockHz", DoubleValue(u.upliClockMhz * 1e6));
    h.SetPackerAttribute("UseAddressCache", BooleanValue(u.addressCache));
    h.SetPackerAttribute("Authentication", BooleanValue(u.authentication));
    // Section 2.7.9: strict ordering whenever security is on.
    h.SetPackerAttribute("StrictOrdering", BooleanValue(u.strictOrdering || u.authentication));
    h.SetLinkLevelReplay(u.replay);
    UalinkHelper::Pod built = h.Install(pod.accelerators, pod.planes);
    if (!u.virtualPods.empty())
    {
        // Sections 1.1, 10.7.1: every station's table on every rail denies the other pods.
        UalinkHelper::SetVirtualPods(built, u.virtualPods);
    }

    accNodes = built.acceleratorNodes;
    endpoints.assign(built.acc.begin(), built.acc.end());
    accDevices.assign(pod.accelerators, {});
    int64_t stream = 1000;
    std::size_t link = 0;
    for (uint32_t r = 0; r < pod.planes; ++r)
    {
        const std::string sw = "p" + std::to_string(r) + ".sw0";
        for (uint32_t a = 0; a < pod.accelerators; ++a, ++link)
        {
            Ptr<FabricChannel> ch = built.links[link];
            Ptr<FabricNetDevice> up = DynamicCast<FabricNetDevice>(ch->GetDevice(0));
            Ptr<FabricNetDevice> down = DynamicCast<FabricNetDevice>(ch->GetDevice(1));
            const std::string acc = "acc" + std::to_string(a);
            accDevices[a].push_back(up);
            transmitters.push_back(PodTopology::Transmitter{up, acc + "->" + sw, "acc-up", r});
            transmitters.push_back(PodTopology::Transmitter{down, sw + "->" + acc, "down", r});
            stream += ch->AssignStreams(stream);
        }
    }
    // Faults (pod.ualink.fail-link included) are scheduled by the FaultInjector.
    switches = built.sw;
}

void
UalinkPodBuilder::CollectCounters(const std::vector<Ptr<FabricEndpoint>>& endpoints,
                                  const std::vector<Ptr<UalinkSwitch>>& switches,
                                  std::map<std::string, uint64_t>& drops,
                                  uint64_t& isolations,
                                  uint64_t& cmpto,
                                  uint64_t& failedMessages)
{
    for (const auto& sw : switches)
    {
        for (const auto& [reason, n] : sw->GetDrops())
        {
            drops[reason] += n;
        }
    }
    for (const auto& e : endpoints)
    {
        if (Ptr<UalinkEndpoint> u = DynamicCast<UalinkEndpoint>(e))
        {
            const UalinkEndpoint::Stats& st = u->GetStats();
            isolations += st.isolations;
            cmpto += st.cmpto;
            failedMessages += st.failedMessages;
            // Drop modes (section 3.1.3): the TL after a link down, the completer.
            if (st.tlDropped > 0)
            {
                drops[UalinkEndpoint::TL_DROP_MODE] += st.tlDropped;
            }
            if (st.completerDropped > 0)
            {
                drops[UalinkEndpoint::COMPLETER_DROP_MODE] += st.completerDropped;
            }
        }
    }
}

} // namespace ns3
