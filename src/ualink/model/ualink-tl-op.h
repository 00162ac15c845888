/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_TL_OP_H
#define UALINK_TL_OP_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief Constants of the UALink 200 transaction layer (UALink_200 Rev 1.0, section 5.1 and
 * Tables 2-6, 5-2).
 */
namespace ualink
{

/// Bytes in a TL sector (section 5.1.1, Table 5-1).
constexpr uint32_t SECTOR_BYTES = 4;
/// Sectors in a TL half-flit (section 5.1.1).
constexpr uint32_t HALF_FLIT_SECTORS = 8;
/// Bytes in a TL half-flit (section 5.1.1).
constexpr uint32_t HALF_FLIT_BYTES = 32;
/// Bytes in a TL flit (section 5.1.1).
constexpr uint32_t TL_FLIT_BYTES = 64;
/// Sectors in a TL flit.
constexpr uint32_t TL_FLIT_SECTORS = 16;
/// Bytes in a UPLI beat (section 2.7.4).
constexpr uint32_t BEAT_BYTES = 64;
/// Most bytes one request moves (section 2.7.4: 4 beats, never crossing 256 B).
constexpr uint32_t MAX_REQUEST_BYTES = 256;
/// Receiver catch limit for requests (section 5.7).
constexpr uint32_t CATCH_LIMIT_REQUESTS = 4;
/// Receiver catch limit for responses (section 5.7).
constexpr uint32_t CATCH_LIMIT_RESPONSES = 8;
/// Most requests and responses in a control half-flit with authentication (section 5.1.1).
constexpr uint32_t AUTH_TAGS_PER_HALF_FLIT = 4;
/// Most command credits one FC field returns per class (section 5.8: 3-bit count).
constexpr uint32_t FC_MAX_CMD_CREDITS = 7;
/// Most data credits one FC field returns per class (section 5.8: 5-bit count).
constexpr uint32_t FC_MAX_DATA_CREDITS = 31;

/// UPLI commands (Table 2-6) that the TL distinguishes.
enum Command : uint8_t
{
    READ = 0x03,          //!< Read, answered by a read response with the data
    WRITE = 0x28,         //!< Write with sparse byte enables (a byte-enable half-flit follows)
    WRITE_FULL = 0x29,    //!< WriteFull: 64 B aligned, all byte enables set
    WRITE_MESSAGE = 0x2A, //!< UPLI Write Message, 1-4 beats
    ATOMIC_R = 0x30,      //!< atomic with a read response (old value)
    ATOMIC_NR = 0x32,     //!< atomic with a write response
};

/// UPLI response status (Tables 2-9, 2-12).
enum Status : uint8_t
{
    OKAY = 0x0,                 //!< success
    TARGET_ABORT = 0x2,         //!< target abort
    DECODE_ERROR = 0x3,         //!< decode error
    PROTECTION_VIOLATION = 0x6, //!< protection violation
    CMPTO = 0x8,                //!< completion timeout (isolation)
    ISOLATE = 0xF,              //!< isolate (write response channel only)
};

/// Control half-flit field types: FTYPE, the upper 4 bits of each field (Tables 5-2, 5-27).
enum FieldType : uint8_t
{
    FTYPE_FC_NOP = 0x0,                   //!< flow control or NOP field, 1 sector
    FTYPE_UNCOMPRESSED_REQUEST = 0x1,     //!< 4 sectors, at 7654 or 3210
    FTYPE_UNCOMPRESSED_RESPONSE = 0x2,    //!< 2 sectors, at 76, 54, 32 or 10
    FTYPE_COMPRESSED_REQUEST = 0x3,       //!< 2 sectors, at 76, 54, 32 or 10
    FTYPE_COMPRESSED_READ_RESPONSE = 0x4, //!< single-beat read response, 1 sector
    FTYPE_COMPRESSED_RESPONSE = 0x5,      //!< write or multi-beat read response, 1 sector
};

/// TL credit classes (section 5.8, Table 5-26).
enum CreditClass : uint8_t
{
    REQ_CMD = 0,  //!< one per request field
    RSP_CMD = 1,  //!< one per response field
    REQ_DATA = 2, //!< one per 64 B of write data or atomic operands
    RSP_DATA = 3, //!< one per 64 B of read response data
};

/// Number of credit classes.
constexpr uint32_t N_CREDIT_CLASSES = 4;
/// Credit kinds per class: VC 0-3, then Pool (section 5.8).
constexpr uint32_t N_CREDIT_KINDS = 5;
/// Index of the pool credit kind.
constexpr uint32_t POOL = 4;

/// Operations carried as FabricPacket segments in UALink bursts (FabricPacket::Segment::op).
enum SegmentOp : uint8_t
{
    OP_WRITE = 0,     //!< write request with its data (WriteFull, or Write when not 64 B aligned)
    OP_READ = 1,      //!< read request (Segment::bytes = bytes asked for)
    OP_READ_RSP = 2,  //!< read response with its data
    OP_WRITE_RSP = 3, //!< write response
    OP_ATOMIC_R = 4,  //!< AtomicR request (operands in one beat), answered by a read response
    OP_ATOMIC_NR = 5, //!< AtomicNR request (operands in one beat), answered by a write response
    OP_WRITE_MESSAGE = 6, //!< UPLI Write Message (1-4 beats), answered by a write response
};

/**
 * \param op a SegmentOp
 * \return whether it is a request carrying data (write data, message data or atomic operands)
 */
inline bool
IsDataRequest(uint8_t op)
{
    return op == OP_WRITE || op == OP_ATOMIC_R || op == OP_ATOMIC_NR || op == OP_WRITE_MESSAGE;
}

/// FabricPacket::Segment::tclass bits: the VC (bits 0-1) and the credit kinds a hop recorded.
constexpr uint8_t TCLASS_VC_MASK = 0x3;
/// tclass bit: the operation crossed its last TL hop on Pool credits (else its VC's, 5.8).
constexpr uint8_t TCLASS_TL_POOL = 1u << 2;
/// tclass bit: its Req, RdRsp or WrRsp beats took UPLI Pool credits (else its VC's, 2.6).
constexpr uint8_t TCLASS_UPLI_POOL = 1u << 3;
/// tclass bit: its OrigData beats took UPLI Pool credits (else its VC's, 2.6).
constexpr uint8_t TCLASS_UPLI_DATA_POOL = 1u << 4;

/// Bit of FabricPacket::Segment::aux flagging poisoned data (UPLI DataError, section 3.1.4.1).
constexpr uint32_t AUX_POISON = 1u << 15;

/**
 * \param tag 11-bit tag
 * \param status 4-bit status
 * \param port 16-bit port index (the ingress port at a switch)
 * \param poisoned whether the data carries the UPLI DataError (poison)
 * \return the packed FabricPacket::Segment::aux field
 */
inline uint32_t
PackAux(uint16_t tag, uint8_t status, uint16_t port, bool poisoned = false)
{
    return (tag & 0x7FFu) | ((status & 0xFu) << 11) | (poisoned ? AUX_POISON : 0u) |
           (static_cast<uint32_t>(port) << 16);
}

/// \param aux a Segment::aux field \return whether its data is poisoned
inline bool
AuxPoisoned(uint32_t aux)
{
    return (aux & AUX_POISON) != 0;
}

/// \param aux a Segment::aux field \return its tag
inline uint16_t
AuxTag(uint32_t aux)
{
    return static_cast<uint16_t>(aux & 0x7FFu);
}

/// \param aux a Segment::aux field \return its status
inline uint8_t
AuxStatus(uint32_t aux)
{
    return static_cast<uint8_t>((aux >> 11) & 0xFu);
}

/// \param aux a Segment::aux field \return its port
inline uint16_t
AuxPort(uint32_t aux)
{
    return static_cast<uint16_t>(aux >> 16);
}

/**
 * \param type a field type
 * \return its size in sectors (Table 5-2)
 */
inline uint32_t
FieldSectors(FieldType type)
{
    switch (type)
    {
    case FTYPE_UNCOMPRESSED_REQUEST:
        return 4;
    case FTYPE_UNCOMPRESSED_RESPONSE:
    case FTYPE_COMPRESSED_REQUEST:
        return 2;
    default:
        return 1;
    }
}

/**
 * \param type a field type
 * \return whether it is a request field
 */
inline bool
IsRequestField(FieldType type)
{
    return type == FTYPE_UNCOMPRESSED_REQUEST || type == FTYPE_COMPRESSED_REQUEST;
}

/**
 * \param bytes transfer length in bytes (at most 256)
 * \param addr byte address of the transfer
 * \return the UPLI beats it takes: 64 B beats on natural byte lanes (section 2.8)
 */
inline uint32_t
Beats(uint32_t bytes, uint64_t addr)
{
    if (bytes == 0)
    {
        return 1;
    }
    const uint64_t first = addr / BEAT_BYTES;
    const uint64_t last = (addr + bytes - 1) / BEAT_BYTES;
    return static_cast<uint32_t>(last - first + 1);
}

} // namespace ualink

/**
 * \ingroup ualink
 * \brief One UPLI transaction as the transaction layer packs it: a request (Read, Write,
 * WriteFull, Write Message, atomic) or a response (read or write).
 */
struct UalinkTlOp
{
    /// What the field is.
    enum Kind : uint8_t
    {
        REQUEST,        //!< a request on the Request channel
        READ_RESPONSE,  //!< a response on the RdRsp channel (with data)
        WRITE_RESPONSE, //!< a response on the WrRsp channel (no data)
    };

    Kind kind{REQUEST};                      //!< request or response
    ualink::Command cmd{ualink::WRITE_FULL}; //!< request command (or the command answered)
    uint32_t bytes{256};                     //!< bytes moved (request length; read data)
    uint64_t addr{0};                        //!< byte address (requests)
    uint16_t src{0};                         //!< 10-bit source accelerator id
    uint16_t dst{0};                         //!< 10-bit destination accelerator id
    uint16_t tag{0};                         //!< 11-bit tag
    uint8_t vc{0};                           //!< virtual channel 0-3
    bool pool{false};                        //!< sent on a pool credit
    uint8_t status{ualink::OKAY};            //!< response status
    bool poisoned{false};                    //!< data carries the UPLI DataError (poison)
    uint64_t id{0};                          //!< caller's id, returned in placements
};

} // namespace ns3

#endif /* UALINK_TL_OP_H */
