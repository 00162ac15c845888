/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_SCENARIO_H
#define RIFL_SCENARIO_H

#include "scenario.h"

#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

class BasicEndpoint;
class BasicEndpointHelper;
class FabricNetDevice;
class FabricSwitch;

/**
 * \ingroup pod
 * \brief `pod.fabric: rifl` (seed 003): checks a scenario's pod against RIFL's limits and sets
 * the framing RIFL fixes.
 *
 * A RIFL pod is the pod builder's topology with RIFL's framing and link layer on every link:
 *
 * - NIC packets are cut into 256 B Layer 2 segments, the last padded, each with the 8-byte
 *   L1 + L2 header (pod.nic.mtu a multiple of 256; pod.nic.header-bytes is set to the header
 *   bytes of a full packet, 8 x mtu / 256, which sizes the ports' largest frame);
 * - every link runs RIFL Layer 1: fixed frames (a 256 B segment and its 8 B header) with a
 *   CRC-12 each, so errors are charged per frame (pod.link.codeword-bits = 264 x 8 = 2112, no
 *   interframe gap) and NAK-only retransmission with the 2.5 round-trip pause
 *   (pod.llr.mode = nak-only on all links; pod.llr.nak-pause is kept);
 * - no end-to-end transport (RIFL is lossless hop by hop): pod.transport.kind must be none;
 * - at most 256 ports per switch (8-bit Dst Port fields) and at most 5 switch hops (leaf-spine
 *   has 3);
 * - Layer 2 source routing: NICs write each cell's route and switches forward by Equation 1
 *   (ConfigureSourceRouting, RiflSourceRouting).
 */
class RiflScenario
{
  public:
    /**
     * \brief Check a pod declared `fabric: rifl`.
     * \param pod the pod
     * \param[out] field the offending key, on failure
     * \param[out] message why, on failure
     * \return true if the pod is a valid RIFL pod
     */
    static bool Check(const Scenario::Pod& pod, std::string& field, std::string& message);

    /**
     * \brief Set what RIFL fixes (framing, Layer 1).
     * \param pod the pod
     */
    static void Apply(Scenario::Pod& pod);

    /**
     * \brief Make the pod's endpoints RIFL NICs: each packet cut into 256 B segments, the last
     * padded, each with the 8-byte L1 + L2 header (the NIC's own per-packet header is then 0).
     * \param eh the pod's endpoint helper
     */
    static void ConfigureEndpoints(BasicEndpointHelper& eh);

    /**
     * \brief Route by RIFL Layer 2 source routes (seed 003 section IV.A): endpoints write each
     * cell's route (computed on plane 0 along the tables' paths), switches forward by
     * Equation 1 and rotate the header (RiflSourceRouting).
     * \param switches every switch, plane-major
     * \param perPlane switches per plane
     * \param accDevices per accelerator, its port on each plane
     * \param endpoints the RIFL NICs
     */
    static void ConfigureSourceRouting(
        const std::vector<Ptr<FabricSwitch>>& switches,
        uint32_t perPlane,
        const std::vector<std::vector<Ptr<FabricNetDevice>>>& accDevices,
        const std::vector<Ptr<BasicEndpoint>>& endpoints);

    /**
     * \brief Give every switch the RIFL switch core of pod.rifl.switch (RiflVoqSwitch: VOQs
     * and iSLIP, SAFC or FIFO; seed 003 sections IV.C, V.A), aggregated to the switch, with a
     * cell time of one 264 B cell (256 B segment + 8 B header) at pod.link.rate. Nothing for
     * output-queued.
     * \param switches every switch, ports added
     * \param pod the pod
     */
    static void ConfigureSwitches(const std::vector<Ptr<FabricSwitch>>& switches,
                                  const Scenario::Pod& pod);
};

} // namespace ns3

#endif /* RIFL_SCENARIO_H */
