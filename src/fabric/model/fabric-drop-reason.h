/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_DROP_REASON_H
#define FABRIC_DROP_REASON_H

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Named drop reasons. Every drop in podsim is counted under one of these
 * (DESIGN.md rule 5), following traffic-control's named drop constants.
 */
namespace FabricDropReason
{
/// A switch's shared buffer (or the port/class limit) had no room for the unit.
static constexpr const char* BUFFER_FULL = "BufferFull";
/// The channel's codeword error model corrupted the unit; the receiver discarded it.
static constexpr const char* CORRUPTED = "Corrupted";
/// A switch had no route to the destination.
static constexpr const char* NO_ROUTE = "NoRoute";
/// The unit reached an endpoint that is not its destination.
static constexpr const char* MISDELIVERED = "Misdelivered";
/// The unit was queued at, or sent to, a port whose link is down.
static constexpr const char* LINK_DOWN = "LinkDown";
/// A switch's route from the unit's ingress port to its destination is denied (fault injection,
/// FabricSwitch::SetDenied).
static constexpr const char* ROUTE_DENIED = "RouteDenied";
} // namespace FabricDropReason

} // namespace ns3

#endif /* FABRIC_DROP_REASON_H */
