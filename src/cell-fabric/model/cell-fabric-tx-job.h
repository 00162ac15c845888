/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_TX_JOB_H
#define CELL_FABRIC_TX_JOB_H

#include "cell-fabric-adapter.h"

#include "ns3/event-id.h"
#include "ns3/fabric-message.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief A job of a Pyxis chip's Tx Fabric Adapter: an entry of the Tx Job Table (Pyxis spec
 * 10.7.2, Table 10-1) or a datagram admitted from a TxQ (10.7.1.3), which the model keeps in the
 * same table as a one-page job without CTS, ACK or timers.
 *
 * CellFabricTxPipeline holds the table and pages the jobs out (VOQ-Active lock, Page Generator,
 * grants, FO); CellFabricRdmaJobManager runs an RDMA job's state machine (10.7.1.1-2) on its
 * entry and CellFabricDatagramService completes a datagram's.
 */
struct CellFabricTxJob
{
    /// Bit 31 of a job id: a job of PostRdmaTx (the endpoint API's ids stay below it).
    static constexpr uint64_t API_JOB_BIT = 1ULL << 31;

    /// A message at its source: the jobs (or datagrams) it was cut into.
    struct Message
    {
        FabricMessage msg;    //!< the record
        uint32_t jobsLeft{0}; //!< jobs not yet acknowledged (datagrams not yet transmitted)
    };

    /// Tx job state machine (10.7.1.1, Figure 10-1).
    enum State
    {
        QUEUED,   //!< waiting for the VOQ-Active lock
        CTS_WAIT, //!< holds the lock, waits for the CTS (TxCtsTimeout)
        ACTIVE,   //!< pages being generated and sent (TxActiveTimeout)
        ACK_WAIT, //!< all pages transmitted, waits for ACK or NACK (TxAckTimeout)
        DONE,     //!< acknowledged or failed
    };

    uint64_t id{0};                   //!< job id (the TJID with its epoch, unbounded here)
    uint32_t dst{0};                  //!< destination chip
    uint32_t cluster{0};              //!< destination cluster
    uint64_t voq{0};                  //!< VOQ key (dst, cluster, OQ; source cluster)
    std::vector<uint32_t> pages;      //!< data bytes of each page
    uint32_t nextRequest{0};          //!< next page to request
    bool cts{false};                  //!< CTS received
    uint8_t epoch{0};                 //!< 1-bit job epoch (flips on a retry)
    bool retried{false};              //!< the job was retried once
    bool failed{false};               //!< Job Failed (10.7.1.2)
    std::shared_ptr<Message> message; //!< the message the job belongs to
    State state{QUEUED};              //!< state (10.7.1.1)
    uint32_t sent{0};                 //!< pages of this attempt transmitted
    EventId timer;                    //!< the state's timer

    uint32_t srcCluster{0}; //!< source cluster (10.7.1: its Job Manager)
    bool high{false};       //!< its VOQ is high priority (10.7.3)
    uint32_t profile{0};    //!< its VOQ's occupancy profile (10.7.3.1)
    bool datagram{false};   //!< a datagram (one page, no CTS, no timer)
    uint32_t rxq{0};        //!< datagram: RxQ index (page header, 10.6)
    uint32_t txq{0};        //!< datagram: TxQ (source cluster * 2 + index)

    bool api{false};                        //!< posted by PostRdmaTx (no message: a callback)
    CellFabricAdapter::RdmaCompletion info; //!< PostRdmaTx: what its completion reports
    CellFabricAdapter::RdmaCallback done;   //!< PostRdmaTx: called on the ACK
    uint32_t pageSizeWords{0};              //!< PageSizeWords of its pages
};

} // namespace ns3

#endif /* CELL_FABRIC_TX_JOB_H */
