/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_KIND_H
#define CELL_FABRIC_KIND_H

#include "ns3/data-rate.h"
#include "ns3/fabric-kind.h"
#include "ns3/nstime.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief `pod.fabric: cell` (Pyxis spec section 10): one Fabric Adapter (CellFabricAdapter) per
 * accelerator (chip), chip link p to cell-switch plane p, with the keys of `pod.cell`. A plane is
 * one cell switch (single-stage, up to pod.cell.switch-ports chips) or a two-stage folded Clos
 * (CellFabricHelper); pod.planes is set to pod.cell.links.
 *
 * Refused (each with the key at fault): an illegal RDMA page size (pod.cell.page-size-words not
 * in {37, 48, ..., 125}, 10.7.2 and 11.4.6), more chip links into a single-stage plane than its
 * cell switch has ports (one per chip), more chips than a two-stage plane reaches (as many
 * first-stage switches as a second-stage switch's ports reach), up ports that do not spread
 * evenly over the second-stage switches, an Rx CBUF smaller than one full page, pod.planes other
 * than pod.cell.links, job timers against the spec's order (a Tx CTS wait not longer than the Rx
 * data wait, an Rx job completion not longer than the Tx ACK wait; 10.7.1.1, 10.8.1.1), the keys
 * of other fabrics' link layers (pod.flow-control, pod.transport, pod.llr), with switch credits
 * (pod.cell.switch-credits) a credit smaller than a cell, fewer credits per port than the largest
 * unit's cells and a switch buffer that cannot hold the credits it advertises; ns-3's heap
 * scheduler (its Remove can break the heap order, and the adapter removes events); faults.
 */
class CellFabricKind : public FabricKind
{
  public:
    /// The `pod.cell` section.
    class Config : public FabricKindConfig
    {
      public:
        uint32_t links{36};                           //!< pod.cell.links (per chip = planes)
        std::string stages{"auto"};                   //!< pod.cell.stages
        uint32_t switchPorts{144};                    //!< pod.cell.switch-ports
        uint32_t spines{0};                           //!< pod.cell.spines (0: automatic)
        uint32_t pageSizeWords{125};                  //!< pod.cell.page-size-words
        uint32_t clusters{4};                         //!< pod.cell.clusters
        uint32_t destinationClusters{4};              //!< pod.cell.destination-clusters
        double clockGhz{1.33};                        //!< pod.cell.clock-ghz
        uint32_t foPipes{4};                          //!< pod.cell.fo-pipes
        uint32_t foBytesPerCycle{88};                 //!< pod.cell.fo-bytes-per-cycle
        uint32_t rxDmaBytesPerCycle{128};             //!< pod.cell.rxdma-bytes-per-cycle
        uint32_t rxCbufCells{24576};                  //!< pod.cell.rx-cbuf-cells
        uint32_t cellHeaderBytes{16};                 //!< pod.cell.cell-header-bytes
        uint32_t controlCellBytes{96};                //!< pod.cell.control-cell-bytes
        uint32_t maxOutstandingPages{64};             //!< pod.cell.max-outstanding-pages
        uint32_t maxOutstandingGrants{4096};          //!< pod.cell.max-outstanding-grants
        Time txLatency;                               //!< pod.cell.tx-latency
        Time rxLatency;                               //!< pod.cell.rx-latency
        std::string grantPolicy{"paced-round-robin"}; //!< pod.cell.grant-policy
        Time txCtsTimeout;                            //!< pod.cell.tx-cts-timeout
        Time txActiveTimeout;                         //!< pod.cell.tx-active-timeout
        Time txAckTimeout;                            //!< pod.cell.tx-ack-timeout
        Time rxDataTimeout;                           //!< pod.cell.rx-data-timeout
        Time rxCompletionTimeout;                     //!< pod.cell.rx-completion-timeout
        std::string granularity{"coarse"};            //!< pod.cell.granularity
        DataRate linkRate{"106.25Gbps"};              //!< pod.cell.link-rate
        Time linkDelay;                               //!< pod.cell.link-delay
        Time switchLatency;                           //!< pod.cell.switch-latency

        /// pod.cell.occupancy-profiles: {xoff, xon} of each profile given (10.7.3.1)
        std::vector<std::pair<uint32_t, uint32_t>> occupancyProfiles;
        uint32_t occupancyProfile{0};          //!< pod.cell.occupancy-profile
        uint32_t qpages{1024};                 //!< pod.cell.qpages
        uint32_t txBufBytes{32768};            //!< pod.cell.txbuf-bytes
        std::string transport{"rdma"};         //!< pod.cell.transport
        uint32_t datagramRxRingSize{256};      //!< pod.cell.datagram-rx-ring-size
        uint32_t datagramRxBufferBytes{16256}; //!< pod.cell.datagram-rx-buffer-bytes
        Time datagramRxRepostTime;             //!< pod.cell.datagram-rx-repost-time
        uint32_t datagramTxRingSize{256};      //!< pod.cell.datagram-tx-ring-size
        uint32_t rxDmaTrackingIds{16};         //!< pod.cell.rxdma-tracking-ids
        uint32_t rxDmaCommitCycles{100};       //!< pod.cell.rxdma-commit-cycles
        bool switchCredits{true};              //!< pod.cell.switch-credits
        uint32_t creditsPerPort{0};            //!< pod.cell.credits-per-port (0: auto)
        uint32_t creditBytes{0};               //!< pod.cell.credit-bytes (0: auto)
        Time creditLatency;                    //!< pod.cell.credit-latency
        uint64_t switchBufferCells{349525};    //!< pod.cell.switch-buffer-cells
    };

    std::string GetName() const override;
    std::string GetSummary() const override;
    std::string GetDoc() const override;
    std::string GetSection() const override;
    void DeclareKeys(std::vector<FabricConfigKey>& keys) const override;
    std::shared_ptr<const FabricKindConfig> Read(const FabricConfigReader& in,
                                                 FabricPodConfig& pod) const override;
    bool UsesPlanePlan() const override;
    void CheckFault(const FabricConfigReader& in,
                    const FabricPodConfig& pod,
                    const std::string& kind,
                    const std::string& path) const override;
    void Build(const FabricPodConfig& pod,
               const FabricPlanePlan* plan,
               FabricPod& out) const override;
    void AddProbes(const FabricPod& pod, std::vector<FabricProbe>& probes) const override;
    void CheckDrained(const FabricPod& pod) const override;
    void Collect(const FabricPod& pod, FabricCounters& counters) const override;

    /**
     * \param pod the pod
     * \return stages per plane to build (1 or 2; pod.cell.stages auto: 1 when the chips fit on
     * one switch)
     */
    static uint32_t GetStages(const FabricPodConfig& pod);

    /**
     * \param pod the pod
     * \return credits per port and pool: pod.cell.credits-per-port, or when 0 the round trip of
     * a link as CellFabricHelper derives it (CellFabricHelper::GetRoundTripCredits)
     */
    static uint32_t GetCreditsPerPort(const FabricPodConfig& pod);

  private:
    /**
     * \brief Check a pod declared `fabric: cell` (the refusals of the class description).
     * \param pod the pod
     * \param[out] field the offending key, on failure
     * \param[out] message why, on failure
     * \return true if the pod can be built
     */
    static bool Check(const FabricPodConfig& pod, std::string& field, std::string& message);

    /**
     * \brief The credit keys (pod.cell.switch-credits, credits-per-port, credit-bytes,
     * switch-buffer-cells).
     * \param pod the pod
     * \param[out] field the offending key, on failure
     * \param[out] message why, on failure
     * \return true if they are consistent
     */
    static bool CheckCredits(const FabricPodConfig& pod, std::string& field, std::string& message);
};

} // namespace ns3

#endif /* CELL_FABRIC_KIND_H */
