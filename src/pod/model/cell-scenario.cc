/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cell-scenario.h"

#include "ns3/cell-fabric-cellifier.h"
#include "ns3/cell-fabric-helper.h"
#include "ns3/cell-fabric-occupancy-limiter.h"

#include <algorithm>

namespace ns3
{

uint32_t
CellScenario::GetStages(const Scenario::Pod& pod)
{
    const Scenario::Cell& c = pod.cell;
    if (c.stages == "single-stage")
    {
        return 1;
    }
    if (c.stages == "two-stage")
    {
        return 2;
    }
    return pod.accelerators <= c.switchPorts ? 1 : 2;
}

bool
CellScenario::Check(const Scenario::Pod& pod, std::string& field, std::string& message)
{
    const Scenario::Cell& c = pod.cell;
    const uint32_t n = pod.accelerators;
    if (!CellFabricCellifier::IsLegalPageSizeWords(c.pageSizeWords))
    {
        field = "pod.cell.page-size-words";
        std::string legal;
        for (uint32_t w : CellFabricCellifier::GetLegalPageSizeWords())
        {
            legal += (legal.empty() ? "" : ", ") + std::to_string(w);
        }
        message = std::to_string(c.pageSizeWords) +
                  " words is not a legal RDMA page size (seed 004 10.7.2, 11.4.6): one of " + legal;
        return false;
    }
    if (n < 2)
    {
        field = "pod.accelerators";
        message = "a cell fabric needs at least 2 chips";
        return false;
    }
    const uint32_t stages = GetStages(pod);
    const uint32_t down = c.switchPorts / 2;
    const uint32_t up = c.switchPorts - down;
    if (stages == 1 && n > c.switchPorts)
    {
        field = "pod.accelerators";
        message = std::to_string(n) + " chip links reach each single-stage plane, more than the " +
                  std::to_string(c.switchPorts) +
                  " ports of its cell switch (one port per chip): use pod.cell.stages: two-stage "
                  "or more pod.cell.switch-ports";
        return false;
    }
    if (stages == 2)
    {
        const uint32_t spines = c.spines ? c.spines : up;
        if (up % spines != 0)
        {
            field = "pod.cell.spines";
            message = "the " + std::to_string(up) +
                      " up ports of a first-stage switch must spread evenly over " +
                      std::to_string(spines) + " second-stage switches";
            return false;
        }
        const uint64_t leaves = (n + down - 1) / down;
        if (leaves * (up / spines) > c.switchPorts)
        {
            field = "pod.accelerators";
            message = std::to_string(n) + " chips need " + std::to_string(leaves) +
                      " first-stage switches per plane (" + std::to_string(down) +
                      " chips each), more than a second-stage switch of " +
                      std::to_string(c.switchPorts) + " ports reaches (at most " +
                      std::to_string(c.switchPorts / (up / spines) * down) + " chips)";
            return false;
        }
    }
    const uint32_t maxPageCells = CellFabricCellifier::GetCells(
        CellFabricCellifier::MAX_PAGE_PAYLOAD_BYTES + CellFabricCellifier::PAGE_HEADER_BYTES);
    if (c.rxCbufCells < maxPageCells)
    {
        field = "pod.cell.rx-cbuf-cells";
        message = "the Rx CBUF must hold at least one full page (" + std::to_string(maxPageCells) +
                  " cells)";
        return false;
    }
    if (c.controlCellBytes < CellFabricCellifier::MESSAGE_BYTES ||
        c.controlCellBytes >
            CellFabricCellifier::MAX_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES)
    {
        field = "pod.cell.control-cell-bytes";
        message = "a control cell carries a 64 B message in one cell of at most 176 B (10.1)";
        return false;
    }
    if (!CheckCredits(pod, field, message))
    {
        return false;
    }
    // Rx timers longer than Tx timers (10.7.1.1, 10.8.1.1): the Tx CTS wait covers the Rx side's
    // data wait (which resends the CTS), the Rx job completion covers the Tx ACK wait and retry.
    if (c.txCtsTimeout.IsStrictlyPositive() && c.rxDataTimeout.IsStrictlyPositive() &&
        c.txCtsTimeout <= c.rxDataTimeout)
    {
        field = "pod.cell.tx-cts-timeout";
        message = "the Tx CTS-wait timer must be longer than pod.cell.rx-data-timeout, so that the "
                  "receiver can resend its CTS first (seed 004 10.7.1.1)";
        return false;
    }
    if (c.rxCompletionTimeout.IsStrictlyPositive() && c.txAckTimeout.IsStrictlyPositive() &&
        c.rxCompletionTimeout <= c.txAckTimeout)
    {
        field = "pod.cell.rx-completion-timeout";
        message = "the Rx job-completion timer must be longer than pod.cell.tx-ack-timeout, so "
                  "that the sender can time out and retry first (seed 004 10.8.1.1)";
        return false;
    }
    // the occupancy limiter's profiles (10.7.3.1): at most 8, XON below XOFF
    if (c.occupancyProfiles.size() > CellFabricOccupancyLimiter::PROFILES)
    {
        field = "pod.cell.occupancy-profiles";
        message = std::to_string(c.occupancyProfiles.size()) +
                  " occupancy profiles given; the limiter has 8 (seed 004 10.7.3.1)";
        return false;
    }
    for (std::size_t i = 0; i < c.occupancyProfiles.size(); ++i)
    {
        std::string error;
        if (!CellFabricOccupancyLimiter::CheckProfile(c.occupancyProfiles[i].first,
                                                      c.occupancyProfiles[i].second,
                                                      error))
        {
            field = "pod.cell.occupancy-profiles[" + std::to_string(i) + "].xon";
            message = error;
            return false;
        }
    }
    if (!c.occupancyProfiles.empty() && c.occupancyProfile >= c.occupancyProfiles.size())
    {
        field = "pod.cell.occupancy-profile";
        message = "profile " + std::to_string(c.occupancyProfile) + " is not among the " +
                  std::to_string(c.occupancyProfiles.size()) +
                  " given in pod.cell.occupancy-profiles (profiles count from 0)";
        return false;
    }
    if (pod.fc.kind != "none")
    {
        field = "pod.flow-control.kind";
        message = "the cell fabric is lossless by request/grant (grants paced by free Rx buffer "
                  "cells, seed 004 10.1) and its own credits (pod.cell.switch-credits): "
                  "pod.flow-control is for the ethernet and sue fabrics";
        return false;
    }
    if (pod.transport.kind != "none")
    {
        field = "pod.transport.kind";
        message = "the cell fabric's adapter is its own transport (RDMA jobs with CTS and ACK, "
                  "10.3): pod.transport is for the ethernet fabric";
        return false;
    }
    if (pod.llr.mode != "off")
    {
        field = "pod.llr.mode";
        message = "link-level retry is not modelled on cell links: pod.llr is for the ethernet "
                  "and sue fabrics";
        return false;
    }
    return true;
}

uint32_t
CellScenario::GetCreditsPerPort(const Scenario::Pod& pod)
{
    const Scenario::Cell& c = pod.cell;
    if (c.creditsPerPort)
    {
        return c.creditsPerPort;
    }
    // As CellFabricHelper derives them: the round trip of a link at its smallest cell (a 96 B
    // data cell or a control cell, with its header) plus the largest unit.
    const uint32_t smallest =
        std::min<uint32_t>(CellFabricCellifier::MIN_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES,
                           c.controlCellBytes) +
        c.cellHeaderBytes;
    return CellFabricHelper::GetRoundTripCredits(
        c.linkRate,
        c.linkDelay,
        c.switchLatency,
        c.creditLatency,
        smallest,
        CellFabricHelper::GetLargestUnitCells(c.pageSizeWords, c.links, c.granularity == "fine"));
}

bool
CellScenario::CheckCredits(const Scenario::Pod& pod, std::string& field, std::string& message)
{
    const Scenario::Cell& c = pod.cell;
    const uint32_t largestCell =
        CellFabricCellifier::MAX_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES + c.cellHeaderBytes;
    if (c.creditBytes != 0 && c.creditBytes < largestCell)
    {
        field = "pod.cell.credit-bytes";
        message = std::to_string(c.creditBytes) + " B per credit (cell slot) cannot hold a " +
                  std::to_string(largestCell) + " B cell with its header (176 B + " +
                  "pod.cell.cell-header-bytes); 0 takes that size";
        return false;
    }
    if (!c.switchCredits)
    {
        return true;
    }
    const uint32_t unit =
        CellFabricHelper::GetLargestUnitCells(c.pageSizeWords, c.links, c.granularity == "fine");
    if (c.creditsPerPort != 0 && c.creditsPerPort < unit)
    {
        field = "pod.cell.credits-per-port";
        message = std::to_string(c.creditsPerPort) + " credits are fewer than the " +
                  std::to_string(unit) + " cells of the largest unit on a link (a page's cells " +
                  "over pod.cell.links in coarse granularity), which could never be sent";
        return false;
    }
    const uint32_t credits = GetCreditsPerPort(pod);
    const uint64_t ports = CellFabricHelper::GetMostSwitchPorts(pod.accelerators,
                                                                c.switchPorts,
                                                                GetStages(pod),
                                                                c.spines);
    const uint64_t need = ports * 2 * credits;
    if (c.switchBufferCells < need)
    {
        field = "pod.cell.switch-buffer-cells";
        message =
            std::to_string(c.switchBufferCells) +
            " cells cannot hold the credits a cell switch advertises: " + std::to_string(ports) +
            " ports x 2 pools (data, control) x " + std::to_string(credits) +
            " credits = " + std::to_string(need) +
            " cells; give more cells, fewer pod.cell.credits-per-port, or "
            "pod.cell.switch-credits: false";
        return false;
    }
    return true;
}

void
CellScenario::Apply(Scenario::Pod& pod)
{
    pod.planes = pod.cell.links;
}

} // namespace ns3
