/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_CELLIFIER_H
#define CELL_FABRIC_CELLIFIER_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \defgroup cell-fabric Cell fabric (Pyxis Fabric Adapter over cell-switch planes)
 */

/**
 * \ingroup cell-fabric
 * \brief The cellification arithmetic of the Pyxis Fabric Adapter (Pyxis spec 10.1, 10.6,
 * 10.7.2, 11.4.6; worked examples in cell-fabric.rst, Validation, V1): pure functions, no
 * state.
 *
 * - A page carries at most 16 KB of fabric payload plus the 16 B Pyxis page header (10.6).
 * - A page is cut into cells of 96 to 176 B in 16 B chunks (6 to 11 chunks). With
 *   C = ceil(page bytes / 16) chunks and r = C mod 11: r = 0 gives C / 11 full cells; r = 6..10
 *   full cells plus one of r chunks; r = 1..5 full cells except the last two, which become
 *   (5 + r, 6) chunks (the last-two-cells rule, 10.1 table, 10.8.3-4). Cells = ceil(C / 11).
 * - A full RDMA page must fill whole 176 B cells: (PageSizeWords * 128 + 16) mod 176 = 0 with
 *   PageSizeWords in [32, 127] (10.7.2, 11.4.6), i.e. {37, 48, 59, 70, 81, 92, 103, 114, 125}.
 * - Hardware messages (CTS, ACK, NACK) are 64 B one-cell pages (10.3.1, 10.7.9, 10.8.8); on the
 *   wire they are charged the minimum cell of 96 B (an assumption).
 */
class CellFabricCellifier
{
  public:
    static constexpr uint32_t CHUNK_BYTES = 16;               //!< cell granule (10.1)
    static constexpr uint32_t MIN_CELL_CHUNKS = 6;            //!< 96 B cell (10.1)
    static constexpr uint32_t MAX_CELL_CHUNKS = 11;           //!< 176 B cell (10.1)
    static constexpr uint32_t PAGE_HEADER_BYTES = 16;         //!< Pyxis page header (10.6)
    static constexpr uint32_t MAX_PAGE_PAYLOAD_BYTES = 16384; //!< 16 KB page (10.1)
    static constexpr uint32_t WORD_BYTES = 128;               //!< AMEM word (10.6)
    static constexpr uint32_t MIN_PAGE_SIZE_WORDS = 32;       //!< PageSizeWords range (11.4.6)
    static constexpr uint32_t MAX_PAGE_SIZE_WORDS = 127;      //!< PageSizeWords range (11.4.6)
    static constexpr uint32_t MAX_JOB_WORDS = 65536;          //!< NumWords <= 2^16 (11.4.6)
    static constexpr uint32_t MESSAGE_BYTES = 64;             //!< CTS/ACK/NACK page (10.7.9)
    static constexpr uint32_t MAX_DATAGRAM_BYTES = 16256;     //!< datagram payload (10.5)

    /**
     * \param pageBytes bytes of the page including its header (at least 1)
     * \return chunks of the page: ceil(pageBytes / 16)
     */
    static uint32_t GetChunks(uint32_t pageBytes);

    /**
     * \param chunks chunks of a page (at least 1)
     * \return the chunks of each cell, in order, after the last-two-cells rule (a page of fewer
     * than 6 chunks is one short cell: one-cell pages may be smaller, 10.1)
     */
    static std::vector<uint32_t> GetCellChunks(uint32_t chunks);

    /**
     * \param pageBytes bytes of the page including its header
     * \return cells of the page: ceil(chunks / 11)
     */
    static uint32_t GetCells(uint32_t pageBytes);

    /**
     * \param pageBytes bytes of the page including its header
     * \return bytes of its cells (chunks * 16): what the page occupies on the links, cell
     * headers excluded
     */
    static uint32_t GetCellBytes(uint32_t pageBytes);

    /**
     * \param words a PageSizeWords value
     * \return true if it is in [32, 127] and a full page fills whole 176 B cells (10.7.2)
     */
    static bool IsLegalPageSizeWords(uint32_t words);

    /// \return the legal PageSizeWords values in increasing order
    static std::vector<uint32_t> GetLegalPageSizeWords();

    /**
     * Cut an RDMA job into pages: every page is PageSizeWords except the last (11.4.6).
     * \param numWords the job's NumWords, in [1, 2^16]
     * \param pageSizeWords a legal PageSizeWords
     * \return the data bytes of each page (header excluded); empty if an argument is illegal
     */
    static std::vector<uint32_t> GetRdmaPages(uint32_t numWords, uint32_t pageSizeWords);

    /**
     * \param numWords the job's NumWords
     * \param pageSizeWords a legal PageSizeWords
     * \return the cells of all the job's pages (0 if an argument is illegal)
     */
    static uint64_t GetRdmaCells(uint32_t numWords, uint32_t pageSizeWords);

    /**
     * \param bytes datagram payload bytes
     * \return true if 1 <= bytes <= 16,256 (10.5)
     */
    static bool IsLegalDatagram(uint32_t bytes);
};

} // namespace ns3

#endif /* CELL_FABRIC_CELLIFIER_H */
