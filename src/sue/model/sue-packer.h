/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUE_PACKER_H
#define SUE_PACKER_H

#include "sue-framing.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/fabric-flat-index.h"
#include "ns3/fabric-message.h"
#include "ns3/fabric-tx-queue.h"
#include "ns3/nstime.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup sue
 * \brief SUE's per {destination, VC} transmit queues, scheduler and packer (SUE RM102, sections
 * 3.3, 4.2 steps 2-3 and 4.4), as the transmit queue of one or more ports.
 *
 * A message posted to SUE is a run of transactions of up to MaxDataBytes (256) of data each, every
 * one with ControlBytes of control (the command, length and opaque fields of tx_control, Table 1).
 * Transactions wait in the queue of their {destination, VC}. When a port can send, the scheduler
 * goes round robin across the VCs and, within a VC, round robin across the non-empty queues in the
 * order they became non-empty (4.2 step 3). It takes the next eligible queue (one whose PDU the
 * port's gate admits: the transport's window and the link's flow control) and packs every
 * transaction queued there, across messages, up to PackingLimit bytes of transactions, then moves
 * on: work conserving, it never waits to pack (4.4); a queue holding one transaction sends it
 * alone, at once. The PDU is one unit on the wire: its payload is the data it carries; its header
 * bytes are the packed control bytes plus SueFraming's overhead (network header, RH, R-CRC, FCS,
 * minimum frame).
 *
 * Pieces of messages can be put back (Requeue) to be sent again, as the instance does when a port
 * fails in unordered mode.
 */
class SuePacker : public FabricTxQueue
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SuePacker();
    ~SuePacker() override;

    /**
     * \brief Queue a message: its transactions go to the {m.dst, m.tclass} queue.
     * \param m the message (tclass is the VC)
     */
    void Enqueue(const FabricMessage& m);

    /**
     * \brief Queue one transaction of another operation: a read request (op 1: control only,
     * asking for m.bytes) or a read response (op 2: m.bytes of data).
     * \param m the message (tclass is the VC)
     * \param op the operation
     */
    void EnqueueOp(const FabricMessage& m, uint8_t op);

    /**
     * \param cb called when the command interface's rate limit lets a held PDU go (the
     *        instance wakes its port or ports)
     */
    void SetWakeCallback(Callback<void> cb);

    /// \return times a PDU waited for the command interface (CommandRate)
    uint64_t GetRateStalls() const
    {
        return m_rateStalls;
    }

    /**
     * \brief Queue a piece of a message again (bytes [offset, offset + bytes)).
     * \param m the message
     * \param offset first payload byte
     * \param bytes payload bytes
     */
    void Requeue(const FabricMessage& m, uint64_t offset, uint64_t bytes);

    /// \return data bytes queued and not yet packed
    uint64_t GetBacklogBytes() const
    {
        return m_backlog;
    }

    /// \return {destination, VC} queues that hold transactions
    std::size_t GetNActiveQueues() const
    {
        return m_index.Size();
    }

    /// \return PDUs built so far
    uint64_t GetPdus() const
    {
        return m_pdus;
    }

    /// \return transactions packed so far
    uint64_t GetTransactions() const
    {
        return m_transactions;
    }

    /// \return frame bytes added to the packed transactions of each PDU
    uint32_t GetOverheadBytes() const;

    /**
     * \brief The flow hash of the PDUs this packer builds (a transport that wraps the packer
     * replaces it with its connection's, FabricGoBackN::ConnectionHash).
     * \param src the source XPU
     * \param dst the destination XPU
     * \return the hash
     */
    static uint32_t FlowHash(uint32_t src, uint32_t dst);

    /// The PDUs of a lone message on the wire (GetLoneWire).
    struct LoneWire
    {
        uint64_t wireBytes{0};  //!< bytes on the wire: frames and the link's per-frame bytes
        uint64_t pdus{0};       //!< PDUs
        uint32_t largestPdu{0}; //!< wire bytes of its largest PDU
    };

    /**
     * \brief The PDUs this packer cuts a write into when its {destination, VC} queue holds
     * nothing else (PackingLimit, ControlBytes, MaxDataBytes, TxCredits and the framing), as
     * bytes on the wire: what the flow engine charges for it (FabricEndpoint::PlanFlow).
     * \param bytes the message's bytes
     * \param interframeBytes the port's per-frame wire bytes (preamble, SFD, gap)
     * \return its PDUs
     */
    LoneWire GetLoneWire(uint64_t bytes, uint32_t interframeBytes) const;

    /// \return control bytes per transaction
    uint32_t GetControlBytes() const
    {
        return m_controlBytes;
    }

    /// \return the packing limit (bytes of transactions per PDU)
    uint32_t GetPackingLimit() const
    {
        return m_limit;
    }

    /// \param id the local XPU id (source of the PDUs)
    void SetLocalId(uint32_t id)
    {
        m_localId = id;
    }

  protected:
    void DoDispose() override;

  private:
    /// The fields of a message that packing reads (40 bytes; a FabricMessage is 64).
    struct PieceMsg
    {
        /// \param m the message
        PieceMsg(const FabricMessage& m)
            : id(m.id),
              bytes(m.bytes),
              cookie(m.cookie),
              posted(m.posted),
              dst(m.dst),
              tclass(m.tclass)
        {
        }

        uint64_t id;     //!< message id
        uint64_t bytes;  //!< payload bytes of the message
        uint64_t cookie; //!< the poster's tag
        Time posted;     //!< when it was posted
        uint32_t dst;    //!< destination XPU
        uint8_t tclass;  //!< class (VC)
    };

    /// A run of a message's bytes waiting to be packed (64 bytes: one cache line).
    struct Piece
    {
        PieceMsg msg;  //!< the message
        uint64_t next; //!< next payload byte to pack
        uint64_t end;  //!< one past the last byte of the run
        uint8_t op{0}; //!< 0 write, 1 read request (control only), 2 read response
    };

    /**
     * The pieces of one {destination, VC} queue, in arrival order: a vector read from a head
     * index (most queues hold one message, and a std::deque's 512 B block per queue would
     * multiply the packer's memory at 1024 XPUs by six).
     */
    class PieceFifo
    {
      public:
        /// \return true if no piece is queued
        bool empty() const
        {
            return m_head == m_v.size();
        }

        /// \return the oldest piece
        Piece& front()
        {
            return m_v[m_head];
        }

        /// \param p a piece to append
        void push_back(const Piece& p)
        {
            m_v.push_back(p);
        }

        /// Drop the oldest piece.
        void pop_front()
        {
            if (++m_head == m_v.size())
            {
                m_v.clear();
                m_head = 0;
            }
        }

        /// \return the oldest piece
        std::vector<Piece>::const_iterator begin() const
        {
            return m_v.begin() + m_head;
        }

        /// \return one past the newest piece
        std::vector<Piece>::const_iterator end() const
        {
            return m_v.end();
        }

      private:
        std::vector<Piece> m_v; //!< pieces; [m_head, end) are queued
        std::size_t m_head{0};  //!< index of the oldest queued piece
    };

    /// The queue of one {destination, VC}.
    struct Queue
    {
        PieceFifo pieces; //!< in arrival order
        uint64_t key{0};  //!< its {destination, VC} key
    };

    bool DoIsEmpty() const override;

    /// \return true when CommandRate paces the PDUs
    bool HasOwnGate() const override
    {
        return m_rate.GetBitRate() > 0;
    }

    Ptr<FabricPacket> DoDequeue(const FabricTxGate* gate) override;

    /**
     * \brief Add a piece to its queue.
     * \param p the piece
     */
    void Add(const Piece& p);

    /**
     * \brief Plan the PDU of a queue without taking anything.
     * \param q the queue
     * \param dataBytes data bytes it would carry
     * \param packedBytes transaction bytes (control and data) it would carry
     * \param transactions transactions it would carry
     * \param pieces pieces it would touch
     */
    void Plan(const Queue& q,
              uint64_t& dataBytes,
              uint64_t& packedBytes,
              uint64_t& transactions,
              uint64_t& pieces) const;

    /**
     * \param dst destination
     * \param vc virtual channel
     * \return the queue key
     */
    static uint64_t Key(uint32_t dst, uint8_t vc)
    {
        return (static_cast<uint64_t>(dst) << 8) | vc;
    }

    /**
     * \brief The command interface's rate limit: take \p bytes of tokens if the bucket has
     * them (or is full, for a PDU larger than it); otherwise schedule the wake callback for
     * when it will.
     * \param bytes transaction bytes of the PDU
     * \return true if the PDU may be built now
     */
    bool TakeTokens(uint64_t bytes);

    uint32_t m_limit{2048};                                     //!< PackingLimit
    uint32_t m_controlBytes{18};                                //!< ControlBytes
    uint32_t m_maxData{256};                                    //!< MaxDataBytes
    SueFraming::HeaderFormat m_format{SueFraming::AFH_GEN2_12}; //!< HeaderFormat
    bool m_lite{false};                                         //!< Lite
    uint32_t m_shimBytes{20};                                   //!< ShimBytes
    uint32_t m_localId{0};                                      //!< source XPU
    uint32_t m_credits{0};                                      //!< TxCredits
    DataRate m_rate{0};                                         //!< CommandRate
    uint32_t m_burst{4096};                                     //!< CommandBurst
    double m_tokens{4096};                                      //!< bucket (bytes)
    Time m_tokensAt;                                            //!< time of m_tokens
    EventId m_wakeEvent;                                        //!< pending wake
    Callback<void> m_wakeCb;                                    //!< wakes the port(s)
    uint64_t m_rateStalls{0};                                   //!< PDUs held by the rate
    FabricFlatIndex<uint64_t> m_index;                          //!< {dst, VC} -> non-empty queue
    std::vector<Queue> m_queues;                                //!< queues by slot
    std::vector<uint32_t> m_freeSlots;                          //!< slots of emptied queues
    std::vector<std::deque<uint32_t>> m_active; //!< per VC: slots of non-empty queues, in turn
    uint32_t m_nextVc{0};                       //!< VC round-robin pointer
    uint64_t m_backlog{0};                      //!< data bytes queued
    uint64_t m_pdus{0};                         //!< PDUs built
    uint64_t m_transactions{0};                 //!< transactions packed
};

} // namespace ns3

#endif /* SUE_PACKER_H */
