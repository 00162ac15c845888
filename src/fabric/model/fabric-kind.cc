/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-kind.h"

#include "fabric-channel.h"
#include "fabric-go-back-n.h"
#include "fabric-net-device.h"
#include "fabric-plane-plan.h"
#include "fabric-pod.h"
#include "fabric-tx-queue.h"

#include "ns3/abort.h"

namespace ns3
{

FabricKind::~FabricKind() = default;

std::string
FabricKind::GetDoc() const
{
    return "src/" + GetName() + "/doc/" + GetName() + ".rst";
}

std::string
FabricKind::GetSection() const
{
    return "";
}

void
FabricKind::DeclareKeys(std::vector<FabricConfigKey>& /* keys */) const
{
}

std::shared_ptr<const FabricKindConfig>
FabricKind::Read(const FabricConfigReader& /* in */, FabricPodConfig& /* pod */) const
{
    return nullptr;
}

uint32_t
FabricKind::GetOperations() const
{
    return WRITE;
}

std::string
FabricKind::CheckOperation(uint32_t /* op */, uint64_t /* bytes */) const
{
    return "";
}

bool
FabricKind::UsesPlanePlan() const
{
    return true;
}

bool
FabricKind::SupportsMesh() const
{
    return false;
}

bool
FabricKind::SupportsDistributed() const
{
    return UsesPlanePlan();
}

uint32_t
FabricKind::GetSwitchesPerPlane(const FabricPodConfig& /* pod */) const
{
    return 0;
}

uint64_t
FabricKind::EstimateBytesPerAccelerator(const FabricPodConfig& pod) const
{
    // Ethernet pods of 2048 to 16384 accelerators (pod.rst, Memory estimate): 11 to 14 KiB per
    // accelerator beside the route tables, rounded up.
    return uint64_t(16) * 1024 * pod.planes;
}

std::vector<uint32_t>
FabricKind::GetOwnClasses(const FabricPodConfig& /* pod */,
                          bool /* reads */,
                          std::vector<std::string>& /* why */) const
{
    return {};
}

void
FabricKind::CheckTraffic(const FabricConfigReader& /* in */,
                         const FabricPodConfig& /* pod */,
                         const std::vector<TrafficGroup>& /* groups */) const
{
}

void
FabricKind::CheckFault(const FabricConfigReader& /* in */,
                       const FabricPodConfig& /* pod */,
                       const std::string& /* kind */,
                       const std::string& /* path */) const
{
}

std::vector<FabricKind::Fault>
FabricKind::GetImpliedFaults(const FabricPodConfig& /* pod */) const
{
    return {};
}

void
FabricKind::SetLinkUp(const FabricPod& pod,
                      const FabricPodConfig& /* config */,
                      uint32_t acc,
                      uint32_t plane,
                      bool up) const
{
    pod.accDevices.at(acc).at(plane)->GetFabricChannel()->SetLinkUp(up);
}

bool
FabricKind::MakeQueueProbe(Ptr<FabricTxQueue> /* q */, FabricProbe& /* probe */) const
{
    return false;
}

void
FabricKind::AddProbes(const FabricPod& /* pod */, std::vector<FabricProbe>& /* probes */) const
{
}

uint64_t
FabricKind::GetHops(Ptr<FabricNetDevice> dev) const
{
    return dev->GetStats().txUnits;
}

std::vector<Ptr<FabricGoBackN>>
FabricKind::GetTransports(Ptr<FabricEndpoint> /* ep */) const
{
    return {};
}

void
FabricKind::WatchChecks(const FabricPod& /* pod */,
                        Callback<void, uint32_t, uint32_t, const std::string&> /* piece */) const
{
}

void
FabricKind::CheckDrained(const FabricPod& /* pod */) const
{
}

void
FabricKind::Collect(const FabricPod& /* pod */, FabricCounters& /* counters */) const
{
}

bool
FabricKind::SplitsByRails() const
{
    return false;
}

uint32_t
FabricKind::GetRailGroup(const FabricPodConfig& /* pod */) const
{
    return 0;
}

std::string
FabricKind::GetRailRefusal(const FabricPodConfig& /* pod */,
                           const std::vector<uint32_t>& /* rails */) const
{
    return "";
}

std::string
FabricKind::GetRailDoc() const
{
    return GetDoc();
}

std::string
FabricKind::GetRailFaultCoupling() const
{
    return "a fault changes what the rails carry";
}

void
FabricKind::ActivateRails(const FabricPod& /* pod */,
                          uint64_t /* rails */,
                          FabricEndpoint::MessageCallback /* skipped */) const
{
    NS_ABORT_MSG("FabricKind::ActivateRails: the fabric " << GetName()
                                                          << " does not split by rails");
}

uint64_t
FabricKind::GetRailBytesSent(const FabricPod& /* pod */) const
{
    return 0;
}

} // namespace ns3
