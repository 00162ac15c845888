/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_ALGORITHM_H
#define COLLECTIVE_ALGORITHM_H

#include "collective-op.h"
#include "collective-spec.h"

#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Base class of the collective algorithms: turns a CollectiveSpec into a schedule.
 *
 * The schedule of a collective is, for every rank of the communicator, the same number of steps
 * (GetNSteps); a step is a list of CollectiveOp (sends and receives with their blocks and
 * bytes). A rank runs its steps in order: at the start of a step it posts the step's sends, and
 * the step ends once its receives have arrived (and been reduced) and its sends have completed.
 * Steps are numbered globally, so that a send of step k matches a receive of step k at the
 * peer; a rank with nothing to do in a step has an empty step.
 *
 * The schedule is computed on demand by GetStep() from closed forms (and from O(n) logical
 * topologies such as LogicalRing or LogicalTree), not stored: a ring all-reduce over 1024 ranks
 * has 2046 steps per rank, which would be millions of stored operations.
 *
 * Subclasses implement DoPrepare (check that the spec is supported, set the number of blocks and
 * steps) and DoGetStep (the operations of one rank in one step, without bytes); the public
 * non-virtual entry points fill in the bytes from the block layout.
 *
 * Block layout: the collective's data is cut into GetNBlocks() blocks of near-equal size (the
 * first `bytes mod nBlocks` blocks one byte larger); for an all-to-all, block s*n+d is the data
 * rank s sends to rank d (spec.bytes, or spec.sizes[s*n+d] for all-to-all-v).
 */
class CollectiveAlgorithm : public Object
{
  public:
    static TypeId GetTypeId();
    CollectiveAlgorithm();
    ~CollectiveAlgorithm() override;

    /**
     * Prepare the schedule of a collective.
     * \param spec what to do
     * \throws std::invalid_argument with a one-line reason if this algorithm cannot do it (an
     * unsupported collective, a group size it needs to be a power of two, ...)
     */
    void Prepare(const CollectiveSpec& spec);

    /// \return the spec given to Prepare
    const CollectiveSpec& GetSpec() const;

    /// \return the algorithm's name as written in scenarios ("ring", ...)
    std::string GetName() const;

    /// \return steps per rank
    uint32_t GetNSteps() const;

    /// \return number of data blocks
    uint32_t GetNBlocks() const;

    /**
     * \param begin first block
     * \param count number of blocks
     * \return bytes of blocks [begin, begin + count)
     */
    uint64_t GetBlocksBytes(uint32_t begin, uint32_t count) const;

    /**
     * The operations of one rank in one step, bytes filled in.
     * \param rank communicator rank
     * \param step step index, below GetNSteps()
     * \param [out] ops cleared, then filled
     */
    void GetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const;

    /**
     * \param rank communicator rank
     * \return bytes this rank sends over the whole schedule (summing every step; for tests)
     */
    uint64_t GetBytesSentBy(uint32_t rank) const;

    /**
     * The rank that owns a block as an input of an all-gather or an output of a reduce-scatter
     * (ranks own equal contiguous segments of blocks), or the source of an all-to-all block.
     * \param block a block
     * \return its owner
     */
    uint32_t GetBlockOwner(uint32_t block) const;

  protected:
    /**
     * Set the layout and length of the schedule (called by DoPrepare).
     * \param blocks number of blocks
     * \param steps steps per rank
     */
    void SetShape(uint32_t blocks, uint32_t steps);

    /**
     * Append a send.
     * \param ops the step
     * \param peer destination rank
     * \param begin first block
     * \param count blocks
     * \param tag tag
     */
    static void Send(std::vector<CollectiveOp>& ops,
                     uint32_t peer,
                     uint32_t begin,
                     uint32_t count,
                     uint8_t tag = 0);

    /**
     * Append a receive.
     * \param ops the step
     * \param peer source rank
     * \param begin first block
     * \param count blocks
     * \param reduce reduce (true) or copy (false)
     * \param tag tag
     */
    static void Recv(std::vector<CollectiveOp>& ops,
                     uint32_t peer,
                     uint32_t begin,
                     uint32_t count,
                     bool reduce,
                     uint8_t tag = 0);

    /**
     * Throw the standard "not implemented" error.
     * \param supported the collectives this algorithm implements
     */
    [[noreturn]] void Unsupported(const std::string& supported) const;

    /// \param n a number \return true if n is a power of two
    static bool IsPowerOfTwo(uint32_t n);

    CollectiveSpec m_spec; //!< the collective

  private:
    /**
     * Check the spec and set the shape.
     * \param spec the collective (also in m_spec)
     */
    virtual void DoPrepare(const CollectiveSpec& spec) = 0;

    /**
     * The operations of a rank in a step, without bytes.
     * \param rank rank
     * \param step step
     * \param ops empty vector to fill
     */
    virtual void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const = 0;

    /// \return the algorithm's name
    virtual std::string DoGetName() const = 0;

    uint32_t m_nBlocks{0};  //!< blocks
    uint32_t m_nSteps{0};   //!< steps per rank
    bool m_prepared{false}; //!< Prepare() was called
};

} // namespace ns3

#endif /* COLLECTIVE_ALGORITHM_H */
