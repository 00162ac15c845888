/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_ERROR_H
#define CHAKRA_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup workload
 * \brief Why a Chakra trace cannot be read or written: the file, the rank and the node id it
 * concerns (where it concerns one), and what is wrong.
 */
class ChakraError : public std::runtime_error
{
  public:
    /// No rank or node: a problem of the file (or of the program being written)
    static constexpr int64_t NONE = -1;

    /**
     * \param file the trace file (or the program's name when writing)
     * \param rank its rank, or NONE
     * \param node the node id in that file, or NONE
     * \param message what is wrong
     */
    ChakraError(const std::string& file, int64_t rank, int64_t node, const std::string& message);

    /// \return the file
    const std::string& GetFile() const;
    /// \return the rank, or NONE
    int64_t GetRank() const;
    /// \return the node id, or NONE
    int64_t GetNode() const;
    /// \return what is wrong (without the file, rank and node)
    const std::string& GetMessage() const;

  private:
    std::string m_file;    //!< the file
    int64_t m_rank;        //!< the rank
    int64_t m_node;        //!< the node id
    std::string m_message; //!< what is wrong
};

} // namespace ns3

#endif /* CHAKRA_ERROR_H */
