/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_DISPATCHER_H
#define COLLECTIVE_DISPATCHER_H

#include "collective-executor.h"

#include "ns3/fabric-endpoint.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Owns the delivered and completed callbacks of a pod's endpoints and routes each message
 * by its cookie: collective messages to their CollectiveExecutor, and every message (collective
 * or not) to the callbacks set here, so that other workloads keep their per-message records.
 *
 * Cookie layout of a collective message: bit 63 set; bits 48-62 the instance (Register's id);
 * bits 24-47 the step; bits 4-23 the chunk; bits 0-3 the tag. Other workloads use cookies below
 * 2^63.
 */
class CollectiveDispatcher : public Object
{
  public:
    /// Bit 63 marks a collective message.
    static constexpr uint64_t COLLECTIVE_FLAG = uint64_t(1) << 63;
    /// Largest instance id.
    static constexpr uint32_t MAX_INSTANCE = (1u << 15) - 1;
    /// Largest step.
    static constexpr uint32_t MAX_STEP = (1u << 24) - 1;
    /// Largest chunk.
    static constexpr uint32_t MAX_CHUNK = (1u << 20) - 1;

    static TypeId GetTypeId();
    CollectiveDispatcher();
    ~CollectiveDispatcher() override;

    /**
     * Take over the callbacks of these endpoints.
     * \param endpoints the endpoints
     */
    void Install(const std::vector<Ptr<FabricEndpoint>>& endpoints);

    /**
     * Register an executor; its messages will be routed to it.
     * \param executor the executor (Setup is called with the returned id by the caller)
     * \return its instance id
     */
    uint32_t Register(Ptr<CollectiveExecutor> executor);

    /// \return the number of registered instances
    uint32_t GetNInstances() const;

    /// \param i an instance id \return its executor
    Ptr<CollectiveExecutor> GetInstance(uint32_t i) const;

    /// \param cb called for every delivered message, after its executor if it is a collective's
    void SetDeliveredCallback(FabricEndpoint::MessageCallback cb);
    /// \param cb called for every completed message, after its executor if it is a collective's
    void SetCompletedCallback(FabricEndpoint::MessageCallback cb);

    /**
     * \param instance instance id \param step step \param chunk chunk \param tag tag
     * \return the cookie
     */
    static uint64_t MakeCookie(uint32_t instance, uint32_t step, uint32_t chunk, uint8_t tag);

    /// \param cookie a cookie \return true if it marks a collective message
    static bool IsCollective(uint64_t cookie)
    {
        return (cookie & COLLECTIVE_FLAG) != 0;
    }

    /// \param cookie a collective cookie \return its instance
    static uint32_t InstanceOf(uint64_t cookie)
    {
        return (cookie >> 48) & MAX_INSTANCE;
    }

    /// \param cookie a collective cookie \return its step
    static uint32_t StepOf(uint64_t cookie)
    {
        return (cookie >> 24) & MAX_STEP;
    }

    /// \param cookie a collective cookie \return its chunk
    static uint32_t ChunkOf(uint64_t cookie)
    {
        return (cookie >> 4) & MAX_CHUNK;
    }

    /// \param cookie a collective cookie \return its tag
    static uint8_t TagOf(uint64_t cookie)
    {
        return cookie & 0xf;
    }

  protected:
    void DoDispose() override;

  private:
    /// \param m a delivered message
    void Delivered(const FabricMessage& m);
    /// \param m a completed message
    void Completed(const FabricMessage& m);

    std::vector<Ptr<CollectiveExecutor>> m_instances; //!< by instance id
    FabricEndpoint::MessageCallback m_deliveredCb;    //!< every delivery
    FabricEndpoint::MessageCallback m_completedCb;    //!< every completion
};

} // namespace ns3

#endif /* COLLECTIVE_DISPATCHER_H */
