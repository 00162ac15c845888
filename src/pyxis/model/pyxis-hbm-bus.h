/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_HBM_BUS_H
#define PYXIS_HBM_BUS_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief The half-duplex HBM3E device of one cluster as seen by its H2A and A2H DMA engines
 * (Pyxis spec 8, 8.1, 12.1).
 *
 * One transfer per direction at a time (one H2A and one A2H engine per cluster). A transfer
 * alone moves at min(its engine's rate, Bandwidth x eta), eta being the transfer's efficiency.
 * With both directions active they share the device by the controller's read/write bias
 * (12.1): the read (H2A) gets ReadShare of Bandwidth x eta, the write (A2H) the rest. Rates
 * change when a transfer starts or ends (fluid model); byte counts are exact, times are
 * rounded to the picosecond.
 */
class PyxisHbmBus : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisHbmBus();
    ~PyxisHbmBus() override;

    /**
     * Start a transfer (none may be active in that direction).
     * \param read true for HBM to AMEM (a read of the device), false for AMEM to HBM
     * \param bytes bytes to move
     * \param efficiency eta of this transfer, in (0, 1]
     * \param maxBytesPerSecond the engine's own limit
     * \param done called when the last byte has moved
     */
    void Start(bool read,
               double bytes,
               double efficiency,
               double maxBytesPerSecond,
               Callback<void> done);

    /// \return the device bandwidth in bytes per second
    double GetBytesPerSecond() const;

  protected:
    void DoDispose() override;

  private:
    /// A transfer in one direction.
    struct Transfer
    {
        bool active{false};   //!< a transfer is running
        double remaining{0};  //!< bytes left
        double efficiency{1}; //!< eta
        double cap{0};        //!< engine limit, bytes per second
        double rate{0};       //!< current rate, bytes per second
        EventId event;        //!< its completion
        Callback<void> done;  //!< its callback
    };

    /// Advance the remaining bytes to now, recompute the rates and the completions.
    void Update();

    /**
     * A transfer completed.
     * \param dir 0 write, 1 read
     */
    void Complete(uint32_t dir);

    DataRate m_bandwidth;          //!< device bandwidth
    double m_readShare{0.5};       //!< read share when both directions are active
    std::array<Transfer, 2> m_dir; //!< [0] write (A2H), [1] read (H2A)
    Time m_last;                   //!< when the remaining bytes were last advanced
};

} // namespace ns3

#endif /* PYXIS_HBM_BUS_H */
