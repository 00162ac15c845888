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
#include <string>
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
    /// \param a accelerator \param j node \param i iteration: start it
    void StartNode(uint32_t a, uint32_t j, uint32_t i);
    /// \param a accelerator \param j node \param i iteration: it finished
    void Finish(uint32_t a, uint32_t j, uint32_t i);
    /// \param e executor \param rank rank that finished
    void RankDone(Ptr<CollectiveExecutor> e, uint32_t rank);

    std::vector<Node> m_nodes;                       //!< nodes
    uint32_t m_iterations{1};                        //!< iterations
    Factory m_factory;                               //!< collective executors
    std::vector<std::vector<uint32_t>> m_nodesOf;    //!< per accelerator: its nodes
    std::vector<std::vector<int32_t>> m_index;       //!< [node][accelerator] -> position
    std::vector<std::vector<int32_t>> m_rank;        //!< [node][accelerator] -> rank in the node
    std::vector<std::vector<uint32_t>> m_dependents; //!< per node: nodes depending on it
    std::vector<uint32_t> m_iter;                    //!< per accelerator: its iteration
    std::vector<std::vector<State>> m_state;         //!< [accelerator][k]: k-th of nodesOf
    std::vector<std::vector<Time>> m_start;          //!< [accelerator][k]: start time
    std::vector<std::vector<uint32_t>> m_remaining;  //!< [iteration][node]: not finished
    std::vector<std::vector<Ptr<CollectiveExecutor>>> m_executors; //!< [iteration][node]
    std::vector<Record> m_records;                                 //!< finished instances
    uint32_t m_finishedAccelerators{0}; //!< accelerators past the last iteration
};

} // namespace ns3

#endif /* DAG_RUNNER_H */
