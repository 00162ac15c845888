/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DAG_RUNNER_H
#define DAG_RUNNER_H

#include "collective-executor.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <functional>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Runs a workload DAG of compute and collective nodes, repeated for some iterations.
 *
 * Each node has participants (accelerators): a compute node spends its duration on each of
 * them, a collective node runs a CollectiveExecutor over them (a point-to-point send is a
 * two-rank broadcast from its source). A node starts on an accelerator once, for each
 * dependency, that dependency has finished on this accelerator (if it takes part in it) or
 * everywhere (if it does not), in the same iteration. An accelerator enters iteration i+1 once
 * it has finished every node of iteration i it takes part in. The start and end of every node on
 * every participant and iteration are recorded, so the critical path and the exposed
 * communication time can be read from them.
 *
 * A node may give each participant dependencies of its own (Node::rankDeps): an execution
 * trace has one graph per rank, and a collective merged from the ranks' nodes waits, on each
 * rank, only for that rank's predecessors.
 *
 * Cost: every node instance on an accelerator keeps a count of the dependencies it still
 * waits for, and the accelerator a queue of its ready nodes, so that a finish costs the
 * dependents it touches, not a scan of the accelerator's nodes; memory is per participant (no
 * node x accelerator table), so DAGs of 100,000 nodes over 1024 accelerators stay small. Ready
 * nodes start in the order of their index, as a scan of the accelerator's nodes would start
 * them.
 */
class DagRunner : public Object
{
  public:
    /// One node.
    struct Node
    {
        std::string name;                   //!< name
        bool compute{true};                 //!< compute (true) or collective (false)
        Time duration;                      //!< compute: time per accelerator
        std::vector<uint32_t> deps;         //!< indices of the nodes it waits for
        std::vector<uint32_t> participants; //!< accelerators (the collective's group, in order)
        /// per participant (entry r for participants[r]), if not empty: its own dependencies,
        /// in place of `deps`
        std::vector<std::vector<uint32_t>> rankDeps;
    };

    /// One node on one accelerator in one iteration.
    struct Record
    {
        uint32_t node{0};        //!< node index
        uint32_t iteration{0};   //!< iteration
        uint32_t accelerator{0}; //!< accelerator
        Time start;              //!< start
        Time end;                //!< end
    };

    /// Creates the (not started) executor of a collective node in an iteration.
    typedef std::function<Ptr<CollectiveExecutor>(uint32_t node, uint32_t iteration)> Factory;

    static TypeId GetTypeId();
    DagRunner();
    ~DagRunner() override;

    /**
     * \param nodes the nodes (dependencies acyclic, checked by the caller)
     * \param iterations repetitions
     * \param accelerators the pod's size (accelerator ids are below it)
     * \param factory creates collective executors
     */
    void Setup(const std::vector<Node>& nodes,
               uint32_t iterations,
               uint32_t accelerators,
               Factory factory);

    /// Start now.
    void Start();

    /// \return the records of every finished node instance, in finishing order
    const std::vector<Record>& GetRecords() const;

    /**
     * \return a record of every node instance that did not finish (a run cut short, or nodes
     * waiting on a collective that failed): its start if it started, else -1 ps, and an end of
     * -1 ps; by accelerator, iteration and node
     */
    std::vector<Record> GetUnfinished() const;

    /**
     * \return (node, iteration) of every collective node instance whose collective was never
     * created (no participant reached it)
     */
    std::vector<std::pair<uint32_t, uint32_t>> GetUnstartedCollectives() const;

    /// \return true once every accelerator finished every iteration
    bool IsDone() const;

  protected:
    void DoDispose() override;

  private:
    /// State of a node on an accelerator in its current iteration.
    enum State : uint8_t
    {
        WAITING,
        RUNNING,
        DONE
    };

    /// \param a an accelerator: start what is ready, enter the next iteration when done
    void Try(uint32_t a);
    /// \param a accelerator \param k position of a node among its nodes \param i iteration
    void StartNode(uint32_t a, uint32_t k, uint32_t i);
    /// \param a accelerator \param j node \param i iteration: it finished
    void Finish(uint32_t a, uint32_t j, uint32_t i);
    /// \param e executor \param rank rank that finished
    void RankDone(Ptr<CollectiveExecutor> e, uint32_t rank);
    /// \param a accelerator: enter its iteration m_iter[a] (counts and ready queue)
    void Enter(uint32_t a);
    /// \param a accelerator \param j node \return its position among a's nodes, or -1
    int32_t Position(uint32_t a, uint32_t j) const;
    /// \param j node \param r participant index \return that participant's dependencies
    const std::vector<uint32_t>& DepsOf(uint32_t j, uint32_t r) const;
    /// \param a accelerator \param k position: it may be ready now
    void CountDown(uint32_t a, uint32_t k);

    /// One node on one accelerator.
    struct Slot
    {
        uint32_t node{0};     //!< node index
        uint32_t rank{0};     //!< the accelerator's index among the node's participants
        uint32_t waiting{0};  //!< dependencies not yet met in the current iteration
        State state{WAITING}; //!< in the current iteration
        Time start;           //!< start in the current iteration
        std::vector<uint32_t> localDependents; //!< positions of nodes here that wait for it
    };

    /// Per accelerator: its nodes by increasing index, its iteration, its ready nodes.
    struct Accelerator
    {
        std::vector<Slot> slots; //!< its nodes, by node index
        uint32_t iteration{0};   //!< current iteration
        uint32_t done{0};        //!< slots DONE in the current iteration
        std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>>
            ready; //!< positions ready to start (smallest first)
    };

    std::vector<Node> m_nodes;                       //!< nodes
    uint32_t m_iterations{1};                        //!< iterations
    Factory m_factory;                               //!< collective executors
    std::vector<Accelerator> m_acc;                  //!< per accelerator
    std::vector<std::vector<uint32_t>> m_dependents; //!< per node: nodes depending on it
    std::vector<std::vector<uint32_t>> m_remaining;  //!< [iteration][node]: not finished
    std::vector<std::vector<Ptr<CollectiveExecutor>>> m_executors; //!< [iteration][node]
    /// executor -> (iteration, node)
    std::unordered_map<const CollectiveExecutor*, std::pair<uint32_t, uint32_t>> m_executorOf;
    std::vector<Record> m_records;      //!< finished instances
    uint32_t m_finishedAccelerators{0}; //!< accelerators past the last iteration
};

} // namespace ns3

#endif /* DAG_RUNNER_H */
