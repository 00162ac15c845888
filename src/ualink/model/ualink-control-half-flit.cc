/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-control-half-flit.h"

#include "ns3/abort.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

UalinkControlHalfFlit::UalinkControlHalfFlit()
{
}

uint32_t
UalinkControlHalfFlit::DataHalfFlits(const UalinkTlOp& op, bool writeMessageByteEnables)
{
    const uint32_t beats = ualink::Beats(op.bytes, op.addr);
    switch (op.kind)
    {
    case UalinkTlOp::WRITE_RESPONSE:
        return 0;
    case UalinkTlOp::READ_RESPONSE:
        // Section 5.1.1: an AtomicR's read response data is two ascending data half-flits;
        // other read data takes two half-flits per beat.
        return op.cmd == ualink::ATOMIC_R ? 2 : 2 * beats;
    case UalinkTlOp::REQUEST:
        break;
    }
    switch (op.cmd)
    {
    case ualink::READ:
        return 0;
    case ualink::WRITE_FULL:
        return 2 * beats; // no byte enables (section 5.1.1)
    case ualink::WRITE:
        return 2 * beats + 1; // one 32 B byte-enable half-flit whatever the size
    case ualink::WRITE_MESSAGE:
        return 2 * beats + (writeMessageByteEnables ? 1 : 0); // 5.1.1, Table 9-9
    case ualink::ATOMIC_R:
    case ualink::ATOMIC_NR:
        return 3; // two operand half-flits and one byte-enable half-flit
    }
    return 0;
}

uint64_t
UalinkControlHalfFlit::PayloadBytes(const UalinkTlOp& op)
{
    if (op.kind == UalinkTlOp::WRITE_RESPONSE ||
        (op.kind == UalinkTlOp::REQUEST && op.cmd == ualink::READ))
    {
        return 0;
    }
    return op.bytes;
}

int
UalinkControlHalfFlit::FindFootprint(uint32_t size) const
{
    const uint8_t mask = static_cast<uint8_t>((1u << size) - 1);
    for (uint32_t s = 0; s < ualink::HALF_FLIT_SECTORS; s += size)
    {
        if ((m_sectorMask & (mask << s)) == 0)
        {
            return static_cast<int>(s);
        }
    }
    return -1;
}

void
UalinkControlHalfFlit::Compact()
{
    std::array<Field*, ualink::HALF_FLIT_SECTORS> order{};
    for (uint32_t i = 0; i < m_nFields; ++i)
    {
        order[i] = &m_fields[i];
    }
    std::stable_sort(order.begin(), order.begin() + m_nFields, [](const Field* a, const Field* b) {
        return ualink::FieldSectors(a->type) > ualink::FieldSectors(b->type);
    });
    m_sectorMask = 0;
    for (uint32_t i = 0; i < m_nFields; ++i)
    {
        Field* f = order[i];
        const uint32_t size = ualink::FieldSectors(f->type);
        const int s = FindFootprint(size);
        NS_ABORT_MSG_IF(s < 0, "UalinkControlHalfFlit: fields overflow the half-flit");
        f->sector = static_cast<uint8_t>(s);
        m_sectorMask |= static_cast<uint8_t>(((1u << size) - 1) << s);
    }
}

bool
UalinkControlHalfFlit::CanAdd(ualink::FieldType type) const
{
    return ualink::FieldSectors(type) <= GetFreeSectors();
}

bool
UalinkControlHalfFlit::AddField(ualink::FieldType type, const UalinkTlOp& op)
{
    NS_ABORT_MSG_IF(type == ualink::FTYPE_FC_NOP, "UalinkControlHalfFlit: use AddFlowControl");
    const bool request = ualink::IsRequestField(type);
    NS_ABORT_MSG_IF(request != (op.kind == UalinkTlOp::REQUEST),
                    "UalinkControlHalfFlit: field type does not match the operation");
    if (!CanAdd(type))
    {
        return false;
    }
    const uint32_t size = ualink::FieldSectors(type);
    Field& f = m_fields[m_nFields++]; // CanAdd: a free sector remains, so a free slot too
    f.type = type;
    f.op = op;
    f.credits = {};
    f.dataHalfFlits = DataHalfFlits(op, m_wmBe);
    int s = FindFootprint(size);
    if (s < 0)
    {
        Compact(); // the fields fit once placed largest first (section 5.1.1 footprints)
    }
    else
    {
        f.sector = static_cast<uint8_t>(s);
        m_sectorMask |= static_cast<uint8_t>(((1u << size) - 1) << s);
    }
    m_used += size;
    m_requests += request ? 1 : 0;
    m_responses += request ? 0 : 1;
    m_dataHalfFlits += f.dataHalfFlits;
    m_dataBytes += PayloadBytes(op);
    return true;
}

bool
UalinkControlHalfFlit::AddFlowControl(
    const std::array<std::pair<uint8_t, uint8_t>, ualink::N_CREDIT_CLASSES>& credits)
{
    if (!CanAdd(ualink::FTYPE_FC_NOP))
    {
        return false;
    }
    for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
    {
        const uint32_t max = (c == ualink::REQ_CMD || c == ualink::RSP_CMD)
                                 ? ualink::FC_MAX_CMD_CREDITS
                                 : ualink::FC_MAX_DATA_CREDITS;
        NS_ABORT_MSG_IF(credits[c].second > max || credits[c].first >= ualink::N_CREDIT_KINDS,
                        "UalinkControlHalfFlit: FC field count or kind out of range");
    }
    Field& f = m_fields[m_nFields++]; // CanAdd: a free sector remains, so a free slot too
    f = Field();
    f.type = ualink::FTYPE_FC_NOP;
    f.credits = credits;
    const int s = FindFootprint(1);
    f.sector = static_cast<uint8_t>(s);
    m_sectorMask |= static_cast<uint8_t>(1u << s);
    ++m_used;
    ++m_fc;
    return true;
}

std::vector<UalinkControlHalfFlit::Field>
UalinkControlHalfFlit::GetFields() const
{
    std::array<const Field*, ualink::HALF_FLIT_SECTORS> sorted{};
    const uint32_t n = GetSortedFields(&sorted);
    std::vector<Field> out;
    out.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        out.push_back(*sorted[i]);
    }
    return out;
}

uint32_t
UalinkControlHalfFlit::GetSortedFields(
    std::array<const Field*, ualink::HALF_FLIT_SECTORS>* out) const
{
    // Insertion sort by sector (at most 8 fields, each on a sector of its own).
    for (uint32_t i = 0; i < m_nFields; ++i)
    {
        const Field* f = &m_fields[i];
        uint32_t j = i;
        while (j > 0 && (*out)[j - 1]->sector > f->sector)
        {
            (*out)[j] = (*out)[j - 1];
            --j;
        }
        (*out)[j] = f;
    }
    return m_nFields;
}

std::string
UalinkControlHalfFlit::ToString() const
{
    std::array<std::string, ualink::HALF_FLIT_SECTORS> cell;
    cell.fill("NOP");
    for (uint32_t i = 0; i < m_nFields; ++i)
    {
        const Field& f = m_fields[i];
        std::string name;
        switch (f.type)
        {
        case ualink::FTYPE_FC_NOP:
            name = "FC";
            break;
        case ualink::FTYPE_UNCOMPRESSED_REQUEST:
            name = "Req";
            break;
        case ualink::FTYPE_COMPRESSED_REQUEST:
            name = "CReq";
            break;
        case ualink::FTYPE_UNCOMPRESSED_RESPONSE:
            name = "Rsp";
            break;
        default:
            name = "CRsp";
            break;
        }
        for (uint32_t i = 0; i < ualink::FieldSectors(f.type); ++i)
        {
            cell[f.sector + i] = name;
        }
    }
    std::ostringstream os;
    for (int s = ualink::HALF_FLIT_SECTORS - 1; s >= 0; --s)
    {
        os << cell[s] << (s > 0 ? " " : "");
    }
    return os.str();
}

} // namespace ns3
