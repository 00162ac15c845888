/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_CONTROL_HALF_FLIT_H
#define UALINK_CONTROL_HALF_FLIT_H

#include "ualink-tl-op.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief One 32 B TL control half-flit: eight 4 B sectors holding request, response and flow
 * control fields at the footprints of UALink_200 section 5.1.1, Table 5-2.
 *
 * A 4-sector (uncompressed) request sits at sectors 7654 or 3210; a 2-sector field (compressed
 * request, uncompressed response) at 76, 54, 32 or 10; a 1-sector field (compressed response,
 * flow control) anywhere. Unused sectors are NOP fields. Fields are placed at the lowest free
 * legal footprint; when a field finds none although enough sectors are free, the fields are
 * placed again largest first (aligned power-of-two footprints always fit that way when their
 * sizes add up to at most 8), keeping their relative order within each size.
 *
 * The data half-flits a control half-flit calls for follow it in the order of its data fields
 * from the lowest sector up (section 5.1.1); GetDataHalfFlits() counts them per the rules of
 * section 5.1.1: 2 per beat of write data or read data, plus one byte-enable half-flit for Write
 * (and Write Message: section 5.1.1 names only Write and vendor-defined commands, Table 9-9 gives
 * a Write Message's Originator Data byte enables; the model adds the half-flit,
 * SetWriteMessageByteEnables), 2 operand and 1 byte-enable half-flit for an atomic request, and 2
 * for an AtomicR's read response.
 */
class UalinkControlHalfFlit
{
  public:
    /// One field of the half-flit.
    struct Field
    {
        ualink::FieldType type{ualink::FTYPE_FC_NOP}; //!< field type
        uint8_t sector{0};                            //!< lowest sector of its footprint
        UalinkTlOp op;                                //!< the request or response (not for FC)
        /// Credits returned by an FC field: [class] = {kind (VC 0-3 or POOL), count}
        std::array<std::pair<uint8_t, uint8_t>, ualink::N_CREDIT_CLASSES> credits{};
        uint32_t dataHalfFlits{0}; //!< data half-flits this field calls for
    };

    UalinkControlHalfFlit();

    /**
     * \brief Add a request or response field.
     * \param type the field type (not FC/NOP)
     * \param op the transaction
     * \return false if it does not fit (sectors, or the per half-flit limits)
     */
    bool AddField(ualink::FieldType type, const UalinkTlOp& op);

    /**
     * \brief Add a flow-control field.
     * \param credits [class] = {kind (VC 0-3 or ualink::POOL), count}; counts at most 7 for the
     * command classes and 31 for the data classes (section 5.8)
     * \return false if no sector is free
     */
    bool AddFlowControl(
        const std::array<std::pair<uint8_t, uint8_t>, ualink::N_CREDIT_CLASSES>& credits);

    /**
     * \param type a field type
     * \return whether a field of that type would fit now
     */
    bool CanAdd(ualink::FieldType type) const;

    /// \return the fields, in ascending sector order
    std::vector<Field> GetFields() const;

    /**
     * \brief The fields in ascending sector order, without copying them (the packer's hot path).
     * \param out receives pointers to the fields, lowest sector first
     * \return the number of fields
     */
    uint32_t GetSortedFields(std::array<const Field*, ualink::HALF_FLIT_SECTORS>* out) const;

    /// \return free (NOP) sectors
    uint32_t GetFreeSectors() const
    {
        return ualink::HALF_FLIT_SECTORS - m_used;
    }

    /// \return true if it holds no field (a NOP half-flit)
    bool IsNop() const
    {
        return m_nFields == 0;
    }

    /// \return request fields
    uint32_t GetRequests() const
    {
        return m_requests;
    }

    /// \return response fields
    uint32_t GetResponses() const
    {
        return m_responses;
    }

    /// \return flow-control fields
    uint32_t GetFlowControlFields() const
    {
        return m_fc;
    }

    /// \return data half-flits the fields call for (byte enables included)
    uint32_t GetDataHalfFlits() const
    {
        return m_dataHalfFlits;
    }

    /// \return payload bytes carried by the data half-flits (byte enables excluded)
    uint64_t GetDataBytes() const
    {
        return m_dataBytes;
    }

    /**
     * \param op a request or response
     * \param writeMessageByteEnables whether a Write Message carries a byte-enable half-flit
     * \return the data half-flits it calls for (section 5.1.1)
     */
    static uint32_t DataHalfFlits(const UalinkTlOp& op, bool writeMessageByteEnables = true);

    /**
     * \param op a request or response
     * \return the payload bytes its data half-flits carry
     */
    static uint64_t PayloadBytes(const UalinkTlOp& op);

    /// \return a one-line picture, sectors 7 to 0 (tests and logging)
    std::string ToString() const;

    /// \param on whether Write Messages carry a byte-enable half-flit (5.1.1, Table 9-9)
    void SetWriteMessageByteEnables(bool on)
    {
        m_wmBe = on;
    }

  private:
    /**
     * \param size footprint size in sectors (1, 2 or 4)
     * \return the lowest free aligned footprint, or -1
     */
    int FindFootprint(uint32_t size) const;

    /// Place every field again, largest first.
    void Compact();

    /// In insertion order; a field takes at least one of the 8 sectors, so 8 at most (a fixed
    /// array: no allocation per half-flit).
    std::array<Field, ualink::HALF_FLIT_SECTORS> m_fields;
    uint32_t m_nFields{0};       //!< fields in m_fields
    uint8_t m_sectorMask{0};     //!< used sectors
    uint32_t m_used{0};          //!< used sectors
    uint32_t m_requests{0};      //!< request fields
    uint32_t m_responses{0};     //!< response fields
    uint32_t m_fc{0};            //!< FC fields
    uint32_t m_dataHalfFlits{0}; //!< data half-flits called for
    uint64_t m_dataBytes{0};     //!< payload bytes
    bool m_wmBe{true};           //!< Write Message byte enables (Table 9-9)
};

} // namespace ns3

#endif /* UALINK_CONTROL_HALF_FLIT_H */
