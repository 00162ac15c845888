/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_FABRIC_KIND_H
#define RIFL_FABRIC_KIND_H

#include "ns3/ethernet-fabric-kind.h"

#include <string>
#include <vector>

namespace ns3
{

class BasicEndpoint;
class FabricSwitch;

/**
 * \ingroup rifl
 * \brief `pod.fabric: rifl` (RIFL paper, Shen and Chow): RIFL NICs on switched planes, with
 * the keys of `pod.rifl`.
 *
 * The NICs are the plain NIC (BasicEndpoint) cutting each packet into 256 B segments, the last
 * padded, each with the 8-byte Layer 1 + Layer 2 header (section IV.A); every link runs RIFL's
 * NAK-only Layer 1 retry (section II.A); the switches forward by the cells' relative source
 * routes (Equation 1, RiflSourceRouting) with the switch core of pod.rifl.switch (RiflVoqSwitch:
 * VOQs and iSLIP, SAFC or FIFO; sections IV.C, V.A), or output-queued.
 *
 * What it sets on the pod (Read): pod.nic.header-bytes (8 B per segment), pod.link.codeword-bits
 * (one 264 B frame, a segment and its header, each with its own CRC: errors are charged per
 * frame), pod.link.interframe-bytes (0), pod.llr (nak-only on every link). What it
 * refuses: an MTU that is not whole segments, pod.transport, ack-nak retry, radices beyond the
 * 8-bit Dst Port field (256) and, for the VOQ switches, beyond the scheduler's port masks.
 */
class RiflFabricKind : public EthernetFabricKind
{
  public:
    /// The `pod.rifl` section.
    class Config : public FabricKindConfig
    {
      public:
        std::string sw{"islip"};     //!< pod.rifl.switch: islip | safc | fifo | output-queued
        uint32_t islipIterations{3}; //!< pod.rifl.islip-iterations
    };

    std::string GetName() const override;
    std::string GetSummary() const override;
    std::string GetDoc() const override;
    std::string GetSection() const override;
    void DeclareKeys(std::vector<FabricConfigKey>& keys) const override;
    std::shared_ptr<const FabricKindConfig> Read(const FabricConfigReader& in,
                                                 FabricPodConfig& pod) const override;
    void Build(const FabricPodConfig& pod,
               const FabricPlanePlan* plan,
               FabricPod& out) const override;

  private:
    /**
     * Route by RIFL Layer 2 source routes (section IV.A): endpoints write each cell's route
     * (computed on plane 0 along the tables' paths), switches forward by Equation 1 and rotate
     * the header (RiflSourceRouting).
     * \param out the built pod
     * \param endpoints the RIFL NICs
     */
    static void ConfigureSourceRouting(const FabricPod& out,
                                       const std::vector<Ptr<BasicEndpoint>>& endpoints);

    /**
     * Give every switch the RIFL switch core of pod.rifl.switch (RiflVoqSwitch), aggregated to
     * the switch, with a cell time of one 264 B cell (256 B segment + 8 B header) at
     * pod.link.rate. Nothing for output-queued.
     * \param switches every switch, ports added
     * \param pod the pod
     */
    static void ConfigureSwitches(const std::vector<Ptr<FabricSwitch>>& switches,
                                  const FabricPodConfig& pod);
};

} // namespace ns3

#endif /* RIFL_FABRIC_KIND_H */
