/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-cellifier.h"

namespace ns3
{

uint32_t
CellFabricCellifier::GetChunks(uint32_t pageBytes)
{
    return (pageBytes + CHUNK_BYTES - 1) / CHUNK_BYTES;
}

std::vector<uint32_t>
CellFabricCellifier::GetCellChunks(uint32_t chunks)
{
    std::vector<uint32_t> cells;
    if (chunks == 0)
    {
        return cells;
    }
    const uint32_t full = chunks / MAX_CELL_CHUNKS;
    const uint32_t r = chunks % MAX_CELL_CHUNKS;
    if (r == 0)
    {
        cells.assign(full, MAX_CELL_CHUNKS);
    }
    else if (r >= MIN_CELL_CHUNKS || full == 0)
    {
        // r = 6..10: one short last cell; or a one-cell page, which may be smaller (10.1).
        cells.assign(full, MAX_CELL_CHUNKS);
        cells.push_back(r);
    }
    else
    {
        // r = 1..5: the last full cell and the remainder become (5 + r, 6) (10.1 table).
        cells.assign(full - 1, MAX_CELL_CHUNKS);
        cells.push_back(MIN_CELL_CHUNKS - 1 + r);
        cells.push_back(MIN_CELL_CHUNKS);
    }
    return cells;
}

uint32_t
CellFabricCellifier::GetCells(uint32_t pageBytes)
{
    return (GetChunks(pageBytes) + MAX_CELL_CHUNKS - 1) / MAX_CELL_CHUNKS;
}

uint32_t
CellFabricCellifier::GetCellBytes(uint32_t pageBytes)
{
    return GetChunks(pageBytes) * CHUNK_BYTES;
}

bool
CellFabricCellifier::IsLegalPageSizeWords(uint32_t words)
{
    const uint32_t cellBytes = MAX_CELL_CHUNKS * CHUNK_BYTES;
    return words >= MIN_PAGE_SIZE_WORDS && words <= MAX_PAGE_SIZE_WORDS &&
           (words * WORD_BYTES + PAGE_HEADER_BYTES) % cellBytes == 0;
}

std::vector<uint32_t>
CellFabricCellifier::GetLegalPageSizeWords()
{
    std::vector<uint32_t> legal;
    for (uint32_t w = MIN_PAGE_SIZE_WORDS; w <= MAX_PAGE_SIZE_WORDS; ++w)
    {
        if (IsLegalPageSizeWords(w))
        {
            legal.push_back(w);
        }
    }
    return legal;
}

std::vector<uint32_t>
CellFabricCellifier::GetRdmaPages(uint32_t numWords, uint32_t pageSizeWords)
{
    std::vector<uint32_t> pages;
    if (numWords == 0 || numWords > MAX_JOB_WORDS || !IsLegalPageSizeWords(pageSizeWords))
    {
        return pages;
    }
    for (uint32_t left = numWords; left > 0;)
    {
        const uint32_t w = left < pageSizeWords ? left : pageSizeWords;
        pages.push_back(w * WORD_BYTES);
        left -= w;
    }
    return pages;
}

uint64_t
CellFabricCellifier::GetRdmaCells(uint32_t numWords, uint32_t pageSizeWords)
{
    uint64_t cells = 0;
    for (uint32_t bytes : GetRdmaPages(numWords, pageSizeWords))
    {
        cells += GetCells(bytes + PAGE_HEADER_BYTES);
    }
    return cells;
}

bool
CellFabricCellifier::IsLegalDatagram(uint32_t bytes)
{
    return bytes >= 1 && bytes <= MAX_DATAGRAM_BYTES;
}

} // namespace ns3
