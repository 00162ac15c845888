/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_FABRIC_KIND_H
#define UALINK_FABRIC_KIND_H

#include "ns3/fabric-kind.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief `pod.fabric: ualink` (UALink_200 Rev 1.0): one single-tier UALink switch per
 * accelerator port (rails, section 1.1), built with UalinkHelper, with the keys of `pod.ualink`.
 *
 * Every station is bifurcated as pod.ualink.bifurcation (section 2.4); links run at the lanes'
 * rate with the scenario's cable and error rates and the DL's replay; TL credits, address caches,
 * authentication and ordering come from pod.ualink; pod.ualink.virtual-pods partitions the
 * switches' route tables (sections 1.1, 8.4, 10.7.1).
 *
 * What it refuses (each naming its key): more than 1024 accelerators (10-bit ids, section 1.1),
 * ports that do not fill whole stations, a radix below the accelerators or an oversubscription
 * (no switch-to-switch links, section 10.1), an interleave the lanes do not allow (Tables 7-2,
 * 7-4), the other fabrics' pod.flow-control, pod.transport and pod.llr, link errors without the
 * DL's replay, a workload that crosses virtual pods, a link-up fault without a station reset,
 * bit errors without replay.
 */
class UalinkFabricKind : public FabricKind
{
  public:
    /// The `pod.ualink` section.
    class Config : public FabricKindConfig
    {
      public:
        std::string bifurcation{"x4"};    //!< pod.ualink.bifurcation: x4 | 2x2 | 4x1
        std::string laneRate{"200g"};     //!< pod.ualink.lane-rate: 200g | 100g
        uint32_t fecInterleave{0};        //!< pod.ualink.fec-interleave (0: the PHY's)
        bool addressCache{true};          //!< pod.ualink.address-cache
        bool authentication{false};       //!< pod.ualink.authentication
        bool strictOrdering{false};       //!< pod.ualink.strict-ordering
        uint32_t reqCmdCredits{512};      //!< pod.ualink.req-cmd-credits
        uint32_t rspCmdCredits{512};      //!< pod.ualink.rsp-cmd-credits
        uint32_t reqDataCredits{2048};    //!< pod.ualink.req-data-credits
        uint32_t rspDataCredits{2048};    //!< pod.ualink.rsp-data-credits
        uint32_t vcCmdCredits{0};         //!< pod.ualink.vc-cmd-credits (per VC)
        uint32_t vcDataCredits{0};        //!< pod.ualink.vc-data-credits (per VC)
        bool sharedDataBuffer{false};     //!< pod.ualink.shared-data-buffer
        bool initialCreditRelease{false}; //!< pod.ualink.initial-credit-release
        std::string upli{"ideal"};        //!< pod.ualink.upli: ideal | tdm
        double upliClockMhz{1562.5};      //!< pod.ualink.upli-clock-mhz
        Time switchLatency;               //!< pod.ualink.switch-latency (0: section 10.9.2)
        Time completerLatency;            //!< pod.ualink.completer-latency
        bool replay{false};               //!< pod.ualink.replay
        Time watchdog;                    //!< pod.ualink.watchdog (0: off)
        Time stationReset;                //!< pod.ualink.station-reset (0: never)
        bool failLink{false};             //!< pod.ualink.fail-link
        uint32_t failAccelerator{0};      //!< pod.ualink.fail-accelerator
        uint32_t failPort{0};             //!< pod.ualink.fail-port
        Time failAt;                      //!< pod.ualink.fail-at
        /// pod.ualink.virtual-pods: disjoint lists of accelerator ids (empty: one pod)
        std::vector<std::vector<uint32_t>> virtualPods;

        /// \return lanes per port
        uint32_t Lanes() const
        {
            return bifurcation == "x4" ? 4 : (bifurcation == "2x2" ? 2 : 1);
        }
    };

    std::string GetName() const override;
    std::string GetSummary() const override;
    std::string GetSection() const override;
    void DeclareKeys(std::vector<FabricConfigKey>& keys) const override;
    std::shared_ptr<const FabricKindConfig> Read(const FabricConfigReader& in,
                                                 FabricPodConfig& pod) const override;
    uint32_t GetOperations() const override;
    std::string CheckOperation(uint32_t op, uint64_t bytes) const override;
    bool UsesPlanePlan() const override;
    uint32_t GetSwitchesPerPlane(const FabricPodConfig& pod) const override;
    uint64_t EstimateBytesPerAccelerator(const FabricPodConfig& pod) const override;
    void CheckTraffic(const FabricConfigReader& in,
                      const FabricPodConfig& pod,
                      const std::vector<TrafficGroup>& groups) const override;
    void CheckFault(const FabricConfigReader& in,
                    const FabricPodConfig& pod,
                    const std::string& kind,
                    const std::string& path) const override;
    std::vector<Fault> GetImpliedFaults(const FabricPodConfig& pod) const override;
    void Build(const FabricPodConfig& pod,
               const FabricPlanePlan* plan,
               FabricPod& out) const override;
    bool MakeQueueProbe(Ptr<FabricTxQueue> q, FabricProbe& probe) const override;
    void AddProbes(const FabricPod& pod, std::vector<FabricProbe>& probes) const override;
    uint64_t GetHops(Ptr<FabricNetDevice> dev) const override;
    void WatchChecks(const FabricPod& pod,
                     Callback<void, uint32_t, uint32_t, const std::string&> piece) const override;
    void CheckDrained(const FabricPod& pod) const override;
    void Collect(const FabricPod& pod, FabricCounters& counters) const override;
    bool SplitsByRails() const override;
    uint32_t GetRailGroup(const FabricPodConfig& pod) const override;
    std::string GetRailRefusal(const FabricPodConfig& pod,
                               const std::vector<uint32_t>& rails) const override;
    std::string GetRailDoc() const override;
    std::string GetRailFaultCoupling() const override;
    void ActivateRails(const FabricPod& pod,
                       uint64_t rails,
                       FabricEndpoint::MessageCallback skipped) const override;
    uint64_t GetRailBytesSent(const FabricPod& pod) const override;

  private:
    /**
     * Refuse pods UALink 200 cannot build (sections 1.1, 2.4, 7.1, 10.1).
     * \param in the scenario's keys
     * \param pod the pod
     * \param u the section
     */
    void Check(const FabricConfigReader& in, const FabricPodConfig& pod, const Config& u) const;

    /**
     * Read pod.ualink.virtual-pods: each element an inclusive range (from, to) or a list
     * (accelerators) of ids in the pod, an accelerator in at most one (section 8.4).
     * \param in the scenario's keys
     * \param pod the pod (accelerators read)
     * \param u the section
     */
    void ReadVirtualPods(const FabricConfigReader& in, const FabricPodConfig& pod, Config& u) const;
};

} // namespace ns3

#endif /* UALINK_FABRIC_KIND_H */
