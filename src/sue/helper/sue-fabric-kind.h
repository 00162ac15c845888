/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUE_FABRIC_KIND_H
#define SUE_FABRIC_KIND_H

#include "ns3/data-rate.h"
#include "ns3/fabric-kind.h"

#include <string>

namespace ns3
{

/**
 * \ingroup sue
 * \brief `pod.fabric: sue`: SUE XPUs (SueEndpoint, one instance per pod.sue.ports planes) on
 * switched Ethernet planes or wired as a mesh (SUE RM102 Figure 2), with the keys of `pod.sue`.
 *
 * What it checks (each refusal names its key): instances of 1, 2 or 4 ports whose rate is one
 * of Table 4's (800G or 400G), planes in whole instances, Hash load balancing with strict
 * ordering, SUE Lite's 1 KB packing, a packing limit that holds one 256 B transaction, no
 * pod.transport (SUE has its own), a switch latency that covers the FEC time another code saves
 * (section 3.4.4, Appendix A.1), a mesh's planes, at most 1024 XPUs (10-bit ids, Table 3).
 * Its acknowledgements travel on traffic class 2 and reads on classes 0 and 1 (section 3.2.2),
 * which the switches' classes must hold.
 */
class SueFabricKind : public FabricKind
{
  public:
    /// The `pod.sue` section.
    class Config : public FabricKindConfig
    {
      public:
        uint32_t ports{1};                 //!< pod.sue.ports (per instance)
        std::string ordering{"strict"};    //!< pod.sue.ordering
        std::string header{"afh-gen2-12"}; //!< pod.sue.header
        uint32_t packingLimit{2048};       //!< pod.sue.packing-limit (0: 2048, Lite 1024)
        bool lite{false};                  //!< pod.sue.lite
        std::string loadBalance{"hash"};   //!< pod.sue.load-balance
        std::string congestion{"none"};    //!< pod.sue.congestion-control
        std::string fec{"rs544"};          //!< pod.sue.fec
        uint32_t txCredits{0};             //!< pod.sue.tx-credits (0: unlimited)
        DataRate commandRate{0};           //!< pod.sue.command-rate (0: unlimited)
        uint32_t fecInterleave{0};         //!< pod.sue.fec-interleave (0: IEEE)
    };

    std::string GetName() const override;
    std::string GetSummary() const override;
    std::string GetSection() const override;
    void DeclareKeys(std::vector<FabricConfigKey>& keys) const override;
    std::shared_ptr<const FabricKindConfig> Read(const FabricConfigReader& in,
                                                 FabricPodConfig& pod) const override;
    uint32_t GetOperations() const override;
    bool SupportsMesh() const override;
    std::vector<uint32_t> GetOwnClasses(const FabricPodConfig& pod,
                                        bool reads,
                                        std::vector<std::string>& why) const override;
    void Build(const FabricPodConfig& pod,
               const FabricPlanePlan* plan,
               FabricPod& out) const override;
    void SetLinkUp(const FabricPod& pod,
                   const FabricPodConfig& config,
                   uint32_t acc,
                   uint32_t plane,
                   bool up) const override;
    bool MakeQueueProbe(Ptr<FabricTxQueue> q, FabricProbe& probe) const override;
    std::vector<Ptr<FabricGoBackN>> GetTransports(Ptr<FabricEndpoint> ep) const override;
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
     * Check the pod against what SUE can build (the refusals listed in the class description).
     * \param in the scenario's keys
     * \param pod the pod
     * \param s the section
     */
    void Check(const FabricConfigReader& in, const FabricPodConfig& pod, const Config& s) const;

    /**
     * \param pod the pod
     * \return the receive latency change of the pod's FEC choice (section 3.4.4): A.1's SUE RX
     *         (100 ns) and switch (250 ns) latencies assume the IEEE RS-544
     */
    static Time FecAdjustment(const FabricPodConfig& pod);
};

} // namespace ns3

#endif /* SUE_FABRIC_KIND_H */
