/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_SHARED_BUFFER_H
#define FABRIC_SHARED_BUFFER_H

#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief A switch's shared packet buffer with per-port and per-class accounting.
 *
 * Admit() charges a unit to its egress port and class if the shared pool has room (and, when
 * PortClassLimit is set, the port/class share is below it); Release() returns the bytes when the
 * unit leaves. Accounting errors (releasing more than was charged) are loud: they abort.
 */
class FabricSharedBuffer : public Object
{
  public:
    static TypeId GetTypeId();
    FabricSharedBuffer();
    ~FabricSharedBuffer() override;

    /**
     * Size the per-port accounting.
     * \param ports number of ports
     * \param classes number of classes
     */
    void Configure(uint32_t ports, uint32_t classes);

    /**
     * \param port egress port
     * \param tclass class
     * \param bytes unit size
     * \return true if admitted (and charged), false if there is no room
     */
    bool Admit(uint32_t port, uint8_t tclass, uint32_t bytes);

    /**
     * \param port egress port
     * \param tclass class
     * \param bytes unit size
     */
    void Release(uint32_t port, uint8_t tclass, uint32_t bytes);

    /// \return bytes in use
    uint64_t GetOccupancy() const
    {
        return m_occupancy;
    }

    /// \return the largest occupancy seen
    uint64_t GetPeakOccupancy() const
    {
        return m_peak;
    }

    /// \return the buffer size in bytes
    uint64_t GetSize() const
    {
        return m_size;
    }

    /**
     * \param port egress port
     * \param tclass class
     * \return bytes charged to the port and class
     */
    uint64_t GetPortClassOccupancy(uint32_t port, uint8_t tclass) const;

  private:
    /**
     * \brief Check mode: after an admission the buffer and the port/class are within capacity.
     * \param port egress port
     * \param tclass class
     * \param i index of the port and class
     */
    void Check(uint32_t port, uint8_t tclass, std::size_t i) const;
    /**
     * \brief Check mode: a release leaves no count negative.
     * \param port egress port
     * \param tclass class
     * \param i index of the port and class
     * \param bytes released
     */
    void CheckRelease(uint32_t port, uint8_t tclass, std::size_t i, uint32_t bytes) const;

    uint64_t m_size{0};                   //!< bytes
    uint64_t m_portClassLimit{0};         //!< per port/class cap (0: none)
    uint32_t m_classes{1};                //!< classes per port
    std::vector<uint64_t> m_portClass;    //!< occupancy per port and class
    TracedValue<uint64_t> m_occupancy{0}; //!< bytes in use
    uint64_t m_peak{0};                   //!< peak occupancy
};

} // namespace ns3

#endif /* FABRIC_SHARED_BUFFER_H */
