/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_ENDPOINT_H
#define UALINK_ENDPOINT_H

#include "ualink-atomic-memory.h"
#include "ualink-dl.h"
#include "ualink-tx-queue.h"
#include "ualink-upli.h"

#include "ns3/event-id.h"
#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-packet.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class UalinkPhy;

/**
 * \ingroup ualink
 * \brief An accelerator's UALink ports: the endpoint API of DESIGN.md rule 1 on UALink 200, with
 * the UPLI originator and completer of each port (UALink_200 chapter 2).
 *
 * Send() posts a message as UPLI writes of at most MaxRequestBytes (256 B, section 2.7.4), each
 * 256 B-aligned within the message's address range so none crosses a 256 B boundary; a 256 B
 * write is a WriteFull (no byte enables), a shorter tail a Write. Each write leaves on the port
 * the rail hash picks from the address bits above the 256 B region (section 2.4: every request
 * to a 256 B region leaves on the same port), with an 11-bit tag of that port (2048 outstanding
 * per port, Table 2-2; a request waits for a free tag). Read() posts reads the same way.
 *
 * The completer at the destination answers every request CompleterLatency after it arrives, on
 * the port it arrived on: a write response, or a read response with the data. A message is
 * delivered at the destination when its last write arrives; a message completes at the source
 * when its last write response returns (a read when its last data returns).
 *
 * The receive side always sinks (section 2.7.8): a received operation frees its TL credits at
 * once, and they travel back to the partner (UalinkTxQueue::ReleaseCredits).
 */
class UalinkEndpoint : public FabricEndpoint
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkEndpoint();
    ~UalinkEndpoint() override;

    /// Counters.
    struct Stats
    {
        uint64_t writes{0};           //!< write requests issued
        uint64_t reads{0};            //!< read requests issued
        uint64_t responses{0};        //!< responses received
        uint64_t requestsServed{0};   //!< requests answered as completer
        uint64_t tagWaits{0};         //!< requests that waited for a tag
        uint64_t readBytes{0};        //!< read data received
        uint64_t cmpto{0};            //!< requests answered CMPTO (isolation, 3.1.3)
        uint64_t isolations{0};       //!< stations isolated (watchdog expiry or ISOLATE)
        uint64_t isolates{0};         //!< ISOLATE from a link down at this accelerator (3.1.4)
        uint64_t discarded{0};        //!< responses discarded on isolated ports
        uint64_t failedMessages{0};   //!< messages completed with a CMPTO among their requests
        uint64_t atomics{0};          //!< AtomicR and AtomicNR requests issued
        uint64_t writeMessages{0};    //!< Write Message requests issued
        uint64_t atomicResponses{0};  //!< AtomicR answers received (read responses, old value)
        uint64_t poisonedReceived{0}; //!< requests received with poisoned data (3.1.4.1)
        uint64_t poisonedBytes{0};    //!< bytes of poisoned data received
        uint64_t tlDropped{0};        //!< operations dropped by the TL in drop mode (3.1.3)
        uint64_t completerDropped{0}; //!< requests and responses dropped in completer drop mode
        uint64_t stationResets{0};    //!< stations reset by management (ResetStation)
        uint64_t staleResponses{0};   //!< responses for a tag reissued since (after a reset)
    };

    /// Drop reason: the TL of the port's station is in drop mode after a link down (3.1.4).
    static constexpr const char* TL_DROP_MODE = "TlDropMode";
    /// Drop reason: the completer is in drop mode (3.1.3).
    static constexpr const char* COMPLETER_DROP_MODE = "CompleterDropMode";

    /**
     * \brief Add a port: a device attached to its channel (the endpoint becomes its owner).
     * \param device the port
     * \param phy the port's PHY settings (framing arithmetic)
     * \return the port index
     */
    uint32_t AddPort(Ptr<FabricNetDevice> device, Ptr<const UalinkPhy> phy);

    /**
     * \brief Read bytes from an accelerator: UPLI reads of at most 256 B; the read completes here
     * (completed callback) when its last data arrives.
     * \param dst the accelerator read from
     * \param bytes bytes to read
     * \param vc virtual channel
     * \param cookie caller's tag
     * \return the message id
     */
    uint64_t Read(uint32_t dst, uint64_t bytes, uint8_t vc, uint64_t cookie = 0) override;

    /**
     * \brief Issue one atomic (Table 2-6, section 2.7.4.5): its operands travel in one 64 B
     * beat, 2 operand and 1 byte-enable half-flit on the link (section 5.1.1). An AtomicR is
     * answered by a read response carrying the old value (2 data half-flits), an AtomicNR by a
     * write response. It is delivered at the destination and completes here when answered.
     * Its operand is an add of \p cookie to the word at address 0 (the delivered record carries
     * the cookie: the operand beat's; AtomicAdd() names a word and an operand).
     * \param dst the accelerator
     * \param operandBytes operand bytes: 1, 2, 4 or 8 (one operand) or 2, 4, 8 or 16 (two)
     * \param returnsData true for AtomicR, false for AtomicNR
     * \param vc virtual channel
     * \param cookie caller's tag
     * \return the message id
     */
    uint64_t Atomic(uint32_t dst,
                    uint32_t operandBytes,
                    bool returnsData,
                    uint8_t vc,
                    uint64_t cookie = 0) override;

    /**
     * \brief Issue one UPLI Write Message (command 0x2A, Table 2-6): 1 to 4 beats of data plus a
     * byte-enable half-flit (5.1.1, Table 9-9, ``WriteMessageByteEnables``), never compressed
     * (Table 5-32), answered by a write response (this model's message types are the WrRsp ones).
     * \param dst the accelerator
     * \param bytes bytes, 1 to 256
     * \param vc virtual channel
     * \param cookie caller's tag
     * \return the message id
     */
    uint64_t WriteMessage(uint32_t dst, uint32_t bytes, uint8_t vc, uint64_t cookie = 0);

    /**
     * \brief Issue one atomic add to a word of the destination's memory (UalinkAtomicMemory; the
     * spec leaves the operation types implementation-defined, Table 2-4): an AtomicR is answered
     * with the word's value before the add (reported by the AtomicResult trace), an AtomicNR
     * only with a write response (Table 2-6). The request leaves on the port the rail hash picks
     * for `addr` (2.4), so atomics to one 256 B region on one VC keep their order (2.7.9), and
     * carries the operand in one 64 B beat as Atomic() does. At the destination the delivered
     * record's cookie is the operand.
     * \param dst the accelerator
     * \param addr the word's byte address, aligned to its size
     * \param operand the value added
     * \param bytes the word size: 1, 2, 4 or 8 B (Table 2-5)
     * \param returnsData true for AtomicR, false for AtomicNR
     * \param vc virtual channel
     * \param cookie caller's tag (reported at completion)
     * \return the message id
     */
    uint64_t AtomicAdd(uint32_t dst,
                       uint64_t addr,
                       uint64_t operand,
                       uint32_t bytes,
                       bool returnsData,
                       uint8_t vc,
                       uint64_t cookie = 0);

    /// \return the memory words this accelerator's completer updates with atomics
    Ptr<UalinkAtomicMemory> GetMemory() const
    {
        return m_memory;
    }

    /**
     * TracedCallback signature for an AtomicR's answer at the originator.
     * \param msgId the atomic's message id
     * \param old the word's value before the update
     */
    typedef void (*AtomicResultTracedCallback)(uint64_t msgId, uint64_t old);

    /**
     * \brief Management reset of an isolated station (section 3.1.4.3: after a link-down error,
     * system management software recovers the accelerator; the procedure is in the UALink
     * Manageability Specification, not here): its ports leave isolation mode and TL drop mode,
     * their watchdogs restart empty and new requests issue again once their DLs are Up. The
     * UPLI channels kept their credits throughout (3.1.4 table); responses still arriving for
     * requests answered CMPTO before the reset are discarded (their tag is free, or reissued to
     * another message: staleResponses).
     * \param port a port of the station
     */
    void ResetStation(uint32_t port);

    /**
     * \brief Post writes as Send() does, with their data poisoned (UPLI DataError): the link
     * carries it as poisoned-data messages that replace the data half-flits (section 5.3), so
     * it costs no bandwidth; switches forward it unchanged and the receiver counts it.
     * \param dst the accelerator
     * \param bytes bytes
     * \param vc virtual channel
     * \param cookie caller's tag
     * \return the message id
     */
    uint64_t SendPoisoned(uint32_t dst, uint64_t bytes, uint8_t vc, uint64_t cookie = 0);

    double GetCongestionState(uint32_t dst) const override;

    /**
     * \brief The flow engine's plan of a write message (ualink.rst, "Flow engine plan"): a share
     * per port its requests leave on (the rail hash's dealing, as Post deals them), each the
     * port's TL half-flits of them in DL flits in codewords (a one-way stream of writes: 58
     * half-flits per 7 compressed 256 B WriteFulls, section 5.4), one FIFO for all of them (each
     * port's requests go in order), completion on the last write response.
     * \param m the message
     * \param [out] plan the plan
     * \return false without a port
     */
    bool PlanFlow(const FabricMessage& m, FabricFlowPlan& plan) override;

    /// \return ports
    uint32_t GetNPorts() const
    {
        return static_cast<uint32_t>(m_ports.size());
    }

    /**
     * \param i a port
     * \return its device
     */
    Ptr<FabricNetDevice> GetPort(uint32_t i) const
    {
        return m_ports.at(i).dev;
    }

    /**
     * \param i a port
     * \return its transmit queue (TL)
     */
    Ptr<UalinkTxQueue> GetTxQueue(uint32_t i) const
    {
        return m_ports.at(i).q;
    }

    /**
     * \param i a port
     * \return requests outstanding on it (tags in use)
     */
    uint32_t GetOutstanding(uint32_t i) const;

    /**
     * \param i a port
     * \return requests of posted messages that wait at the UPLI for a tag (or for UPLI beat
     * credits, UalinkUpli) and are not yet in the port's TL transmit queue
     */
    uint64_t GetWaitingRequests(uint32_t i) const;

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /**
     * \brief Replace the UPLI (before the first port is added).
     * \param upli the UPLI, configured
     */
    void SetUpli(Ptr<UalinkUpli> upli);

    /// \return the UPLI of this accelerator's ports
    Ptr<UalinkUpli> GetUpli() const
    {
        return m_upli;
    }

    /**
     * \param addr a byte address
     * \return the port the rail hash picks for it (address bits above the 256 B region, 2.4)
     */
    uint32_t SelectPort(uint64_t addr) const;

    /**
     * \brief Simulate only some rails (ualink.rst, "Rails in parallel"): requests whose rail hash
     * picks a port outside the mask are not posted, and a message is delivered (completed) when
     * its bytes on the active ports have arrived (been answered). Exact only while the rails do
     * not interact: UPLI mode Ideal, no link down, no watchdog (isolation takes a whole station).
     * \param mask bit p set: port p is active (every bit set: all ports, the default)
     */
    void SetActiveRails(uint64_t mask);

    /**
     * \brief The bytes of a message that the active rails carry: its requests dealt round the
     * ports as Post() deals them (request i on port (port0 + i) mod n, port0 from the rail hash
     * of its first address), summed over the active ports. The same at both ends of a pod (every
     * accelerator has the same ports).
     * \param msgId the message id
     * \param bytes its bytes
     * \return the bytes on the active ports (bytes when all are active; 0: none)
     */
    uint64_t GetRailShareBytes(uint64_t msgId, uint64_t bytes) const;

    /// \return bytes of the messages posted here that the active rails carry
    uint64_t GetPostedShareBytes() const
    {
        return m_postedShareBytes;
    }

    /**
     * \param i a port
     * \return whether its station is in isolation mode (section 3.1.3)
     */
    bool IsIsolated(uint32_t i) const
    {
        return m_ports.at(i).isolated;
    }

    /**
     * \param i a port
     * \return whether its TL is in drop mode (a link down in its station, section 3.1.4)
     */
    bool IsInDropMode(uint32_t i) const
    {
        return m_ports.at(i).dropMode;
    }

    /**
     * \brief Completer drop mode (section 3.1.3, entered on a UPLI control error at the
     * completer): every request arriving on any port and every response not yet sent is
     * dropped (counted, reason COMPLETER_DROP_MODE); the TL keeps returning credits. The
     * originators' watchdogs notice.
     * \param on whether the completer is in drop mode
     */
    void SetCompleterDropMode(bool on);

    /**
     * TracedCallback signature for operations the TL or completer drops (as UalinkSwitch's).
     * \param src the operation's source accelerator
     * \param dst its destination
     * \param reason TL_DROP_MODE or COMPLETER_DROP_MODE
     */
    typedef void (*DropTracedCallback)(uint32_t src, uint32_t dst, const std::string& reason);

    /**
     * TracedCallback signature for requests arriving at the completer.
     * \param src the originator
     * \param msgId its message
     * \param offset the request's offset in the message
     * \param op ualink::OP_WRITE or ualink::OP_READ
     */
    typedef void (*RequestTracedCallback)(uint32_t src,
                                          uint64_t msgId,
                                          uint64_t offset,
                                          uint8_t op);

    /**
     * \brief Put the station of a port in isolation mode (section 3.1.3): for all its ports stop
     * issuing requests, answer every outstanding and new request with CMPTO, discard incoming
     * responses; credits keep flowing.
     * \param port a port of the station
     */
    void Isolate(uint32_t port);

  protected:
    void DoDispose() override;

  private:
    /// The requests of one message that one port still has to issue.
    struct Run
    {
        FabricMessage m;      //!< the message
        uint8_t op{0};        //!< ualink::OP_WRITE or ualink::OP_READ
        uint64_t next{0};     //!< offset of the next request
        uint64_t stride{256}; //!< offset step between this port's requests
        bool poisoned{false}; //!< its data is poisoned
        bool atomic{false};   //!< an atomic: the request carries addr and operand
        uint64_t addr{0};     //!< atomic: the word's address (in the request's offset)
        uint64_t operand{0};  //!< atomic: the operand (in the request's cookie)
    };

    /// What a tag in use stands for.
    struct TagInfo
    {
        uint64_t msgId{0}; //!< its message
        uint32_t bytes{0}; //!< bytes its request moves
        uint16_t gen{0};   //!< issue count (tells a reused tag from a stale watchdog entry)
        bool busy{false};  //!< outstanding
    };

    /// A request under the watchdog.
    struct Watch
    {
        uint16_t tag{0}; //!< its tag
        uint16_t gen{0}; //!< the tag's issue count then
        Time issued;     //!< when it was issued
    };

    /// One port.
    struct Port
    {
        Ptr<FabricNetDevice> dev;       //!< the device
        Ptr<UalinkTxQueue> q;           //!< its TL transmit queue
        Time slot;                      //!< its DL flit time
        double wirePerHf{0};            //!< wire bytes per TL half-flit (UalinkTxQueue::SetPhy)
        bool packerRead{false};         //!< PlanFlow read the packer's attributes below
        bool useCache{false};           //!< the packer's UseAddressCache
        bool authentication{false};     //!< the packer's Authentication
        uint32_t fcThreshold{0};        //!< the packer's FlowControlCmdThreshold
        uint32_t station{0};            //!< its station (4 lanes, section 2.5)
        bool isolated{false};           //!< its station is in isolation mode
        bool dropMode{false};           //!< its TL is in drop mode (a link down, 3.1.4)
        std::vector<uint16_t> freeTags; //!< tags free
        std::vector<TagInfo> tags;      //!< tags used so far (grows on demand)
        std::deque<Run> waiting;        //!< requests waiting for a tag
        std::deque<Watch> watch;        //!< outstanding requests in issue order (watchdog on)
        EventId watchdog;               //!< the next watchdog check
        std::array<std::deque<FabricPacket::Segment>, 2> rspWaiting; //!< RdRsp, WrRsp held
        Time lastReady; //!< Tdm, strict ordering: the last request's arrival
    };

    /// A message this endpoint posted (write) or asked for (read).
    struct TxMsg
    {
        FabricMessage m;    //!< the record
        uint64_t done{0};   //!< bytes acknowledged (writes) or returned (reads)
        uint64_t failed{0}; //!< bytes answered CMPTO
        bool read{false};   //!< a read
        uint64_t share{0};  //!< bytes on the active rails (all of them by default)
    };

    void DoSend(const FabricMessage& m) override;

    /**
     * \brief Cut a message into requests and hand them to their ports.
     * \param m the message
     * \param op a request operation (ualink::SegmentOp)
     * \param poisoned whether its data is poisoned
     */
    void Post(const FabricMessage& m, uint8_t op, bool poisoned = false);

    /**
     * \brief Make and post a message that Send() does not post (reads, atomics, Write Messages,
     * poisoned writes), with an id from its own range.
     * \param dst the accelerator
     * \param bytes bytes
     * \param vc virtual channel
     * \param cookie caller's tag
     * \param op a request operation
     * \param poisoned whether its data is poisoned
     * \return the message id
     */
    uint64_t PostOther(uint32_t dst,
                       uint64_t bytes,
                       uint8_t vc,
                       uint64_t cookie,
                       uint8_t op,
                       bool poisoned);

    /**
     * \brief Give waiting requests of a port their tags and queue them.
     * \param port the port
     * \param wake whether to wake the port (not from inside its own dequeue)
     */
    void Issue(uint32_t port, bool wake = true);

    /**
     * \brief Account a request's answer at the originator and complete its message when done.
     * \param msgId the message
     * \param bytes the request's bytes
     * \param cmpto whether it was answered CMPTO
     */
    void Answer(uint64_t msgId, uint64_t bytes, bool cmpto);

    /**
     * \brief The watchdog of a port looks at its oldest outstanding request.
     * \param port the port
     */
    void CheckWatchdog(uint32_t port);

    /**
     * \brief A port's link changed state: a link down at an accelerator makes its TL drop all
     * the station's ports and send ISOLATE to the originator (section 3.1.4).
     * \param port the port
     */
    void LinkChanged(uint32_t port);

    /**
     * \brief A port's DL changed state (UalinkDl's LinkState): leaving Up is a link down.
     * \param port the port
     * \param from the old state
     * \param to the new state
     */
    void DlStateChanged(uint32_t port, UalinkDl::LinkState from, UalinkDl::LinkState to);

    /**
     * \brief A link down at this accelerator (section 3.1.4): the TL enters drop mode for all
     * ports of the station (their queues drop what they hold) and sends ISOLATE.
     * \param port the port whose link went down
     */
    void LinkDown(uint32_t port);

    /**
     * \brief Return the UPLI beat credits of operations the TL took from the UPLI and dropped
     * (3.1.4: the UPLI channels keep their credits through a link down).
     * \param port the port
     * \param segs the operations
     */
    void ReturnUpliCredits(uint32_t port, const std::vector<FabricPacket::Segment>& segs);

    /**
     * \brief StationResetDelay after the station isolated, and after each of its ports came Up
     * again: reset it if it is isolated and all its ports are Up.
     * \param port a port of the station
     */
    void AutoResetStation(uint32_t port);

    /**
     * \brief Count and trace a dropped operation.
     * \param port the port
     * \param s the operation
     * \param reason the reason
     */
    void Dropped(uint32_t port, const FabricPacket::Segment& s, const char* reason);

    /**
     * \brief A burst left a port: move waiting requests into its TL queue.
     * \param port the port
     * \param segs the operations of the burst
     */
    void Refill(uint32_t port, const std::vector<FabricPacket::Segment>& segs);

    /**
     * \brief A burst arrived on a port.
     * \param dev the port
     * \param p the burst
     */
    void Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p);

    /**
     * \brief The completer answers a request.
     * \param port the port it arrived on
     * \param req the request
     */
    void Respond(uint32_t port, FabricPacket::Segment req);

    /**
     * \brief Queue the response to a request.
     * \param port the port the request arrived on
     * \param req the request
     */
    void DoRespond(uint32_t port, FabricPacket::Segment req);

    /**
     * \brief Hand held responses of a port to the UPLI as its RdRsp and WrRsp credits allow.
     * \param port the port
     * \param wake whether to wake the port
     */
    void IssueResponses(uint32_t port, bool wake);

    /**
     * \brief Issue an operation on a port's UPLI and, when its last beat has reached the TL,
     * queue it there.
     * \param port the port
     * \param s the operation (its tclass gets the UPLI credit kinds)
     * \return false when a channel lacks credits
     * \param queued set when it was queued at once
     */
    bool ToUpli(uint32_t port, FabricPacket::Segment& s, bool* queued);

    /**
     * \param port a port
     * \return whether its UPLI has a Req credit of any kind left
     */
    bool HasReqCredit(uint32_t port) const;

    /**
     * \brief Queue an operation whose beats reached the TL (Tdm mode).
     * \param port the port
     * \param s the operation
     */
    void ToTl(uint32_t port, FabricPacket::Segment s);

    std::vector<Port> m_ports;                                     //!< ports
    std::unordered_map<const FabricNetDevice*, uint32_t> m_portOf; //!< device to port
    std::unordered_map<uint64_t, TxMsg> m_tx;                      //!< posted messages by id
    std::unordered_map<uint64_t, uint64_t> m_rx; //!< bytes received per (src, message)
    uint32_t m_maxRequest{256};                  //!< MaxRequestBytes
    uint32_t m_tags{2048};                       //!< TagsPerPort
    Ptr<UalinkUpli> m_upli;                      //!< the UPLI of the ports
    uint32_t m_maxSkipped{16};                   //!< MaxSkippedRuns
    Time m_watchdog;                             //!< WatchdogTimeout (0: off)
    TracedCallback<uint32_t, uint64_t, uint64_t, uint8_t> m_requestTrace; //!< completer arrivals
    Time m_completerLatency;                                              //!< CompleterLatency
    uint64_t m_nextReadId{0};                                             //!< reads posted
    Stats m_stats;                                                        //!< counters
    bool m_completerDrop{false};                                          //!< completer drop mode
    TracedCallback<uint32_t, uint32_t, const std::string&> m_dropTrace;   //!< drops
    Ptr<UalinkAtomicMemory> m_memory;                                     //!< atomics' words
    TracedCallback<uint64_t, uint64_t> m_atomicTrace;                     //!< AtomicResult
    Time m_resetDelay;                                                    //!< StationResetDelay
    uint64_t m_railMask{~uint64_t(0)}; //!< active ports (SetActiveRails)
    bool m_allRails{true};             //!< every port is active
    uint64_t m_postedShareBytes{0};    //!< bytes posted on the active ports
};

} // namespace ns3

#endif /* UALINK_ENDPOINT_H */
