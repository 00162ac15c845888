/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_QUEUE_MAP_H
#define PYXIS_QUEUE_MAP_H

#include <cstdint>
#include <sstream>
#include <string>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief The descriptor queues of a cluster (Pyxis spec 11.5, Table 11-1).
 *
 * | Queue id    | Engine |
 * |-------------|--------|
 * | 0x00-0x0B   | UIE 0-11 |
 * | 0x0C-0x0D   | RDMA Tx 0-1 |
 * | 0x0E-0x0F   | RDMA Rx 0-1 |
 * | 0x10        | H2A (HBM to AMEM) |
 * | 0x11        | A2H (AMEM to HBM) |
 * | 0x12-0x14   | ICDMA 0-2, to the other clusters in increasing order (Table 12-1) |
 * | 0x15-0x21   | MPE 0-12 |
 * | 0x22        | barrier configuration |
 * | 0x23-0x24   | datagram Tx 0-1 (rings, no trips) |
 * | 0x25-0x26   | datagram Rx 0-1 (rings, no trips) |
 */
class PyxisQueueMap
{
  public:
    static constexpr uint32_t UIE_FIRST = 0x00;         //!< first UIE queue
    static constexpr uint32_t UIES = 12;                //!< UIE queues
    static constexpr uint32_t RDMA_TX_FIRST = 0x0C;     //!< first RDMA Tx queue
    static constexpr uint32_t RDMA_TX = 2;              //!< RDMA Tx queues
    static constexpr uint32_t RDMA_RX_FIRST = 0x0E;     //!< first RDMA Rx queue
    static constexpr uint32_t RDMA_RX = 2;              //!< RDMA Rx queues
    static constexpr uint32_t H2A = 0x10;               //!< HBM to AMEM DMA queue
    static constexpr uint32_t A2H = 0x11;               //!< AMEM to HBM DMA queue
    static constexpr uint32_t ICDMA_FIRST = 0x12;       //!< first inter-cluster DMA queue
    static constexpr uint32_t ICDMAS = 3;               //!< ICDMA queues
    static constexpr uint32_t MPE_FIRST = 0x15;         //!< first microcode patch engine queue
    static constexpr uint32_t MPES = 13;                //!< MPE queues
    static constexpr uint32_t BARRIER_CONFIG = 0x22;    //!< barrier configuration queue
    static constexpr uint32_t DATAGRAM_TX_FIRST = 0x23; //!< first datagram Tx ring
    static constexpr uint32_t DATAGRAM_RX_FIRST = 0x25; //!< first datagram Rx ring
    static constexpr uint32_t QUEUES = 0x27;            //!< queue ids 0x00-0x26

    /// The engine kind of a queue.
    enum Kind
    {
        UIE,                   //!< Universal Inference Engine
        RDMA_TX_ENGINE,        //!< RDMA Tx job manager
        RDMA_RX_ENGINE,        //!< RDMA Rx job manager
        H2A_DMA,               //!< HBM to AMEM DMA
        A2H_DMA,               //!< AMEM to HBM DMA
        ICDMA,                 //!< inter-cluster DMA
        MPE,                   //!< microcode patch engine
        BARRIER_CONFIG_ENGINE, //!< barrier configuration engine
        DATAGRAM_TX,           //!< datagram Tx ring (no trips)
        DATAGRAM_RX,           //!< datagram Rx ring (no trips)
        INVALID,               //!< not a queue id
    };

    /**
     * \param queue a queue id
     * \return its kind
     */
    static Kind GetKind(uint32_t queue)
    {
        if (queue < RDMA_TX_FIRST)
        {
            return UIE;
        }
        if (queue < RDMA_RX_FIRST)
        {
            return RDMA_TX_ENGINE;
        }
        if (queue < H2A)
        {
            return RDMA_RX_ENGINE;
        }
        if (queue == H2A)
        {
            return H2A_DMA;
        }
        if (queue == A2H)
        {
            return A2H_DMA;
        }
        if (queue < MPE_FIRST)
        {
            return ICDMA;
        }
        if (queue < BARRIER_CONFIG)
        {
            return MPE;
        }
        if (queue == BARRIER_CONFIG)
        {
            return BARRIER_CONFIG_ENGINE;
        }
        if (queue < DATAGRAM_RX_FIRST)
        {
            return DATAGRAM_TX;
        }
        if (queue < QUEUES)
        {
            return DATAGRAM_RX;
        }
        return INVALID;
    }

    /**
     * \param i UIE index, 0-11
     * \return its queue id
     */
    static uint32_t Uie(uint32_t i)
    {
        return UIE_FIRST + i;
    }

    /**
     * \param i MPE index, 0-12
     * \return its queue id
     */
    static uint32_t Mpe(uint32_t i)
    {
        return MPE_FIRST + i;
    }

    /**
     * \param i RDMA Tx queue index, 0-1
     * \return its queue id
     */
    static uint32_t RdmaTx(uint32_t i)
    {
        return RDMA_TX_FIRST + i;
    }

    /**
     * \param i RDMA Rx queue index, 0-1
     * \return its queue id
     */
    static uint32_t RdmaRx(uint32_t i)
    {
        return RDMA_RX_FIRST + i;
    }

    /**
     * The ICDMA queue of a source cluster to a destination cluster (Table 11-1, 12-1): engine k
     * of cluster s goes to the k-th of the other clusters in increasing order.
     * \param src source cluster
     * \param dst destination cluster (not src)
     * \return its queue id
     */
    static uint32_t Icdma(uint32_t src, uint32_t dst)
    {
        return ICDMA_FIRST + (dst < src ? dst : dst - 1);
    }

    /**
     * \param src source cluster
     * \param queue an ICDMA queue id of that cluster
     * \return the destination cluster of that engine
     */
    static uint32_t IcdmaDestination(uint32_t src, uint32_t queue)
    {
        const uint32_t k = queue - ICDMA_FIRST;
        return k < src ? k : k + 1;
    }

    /**
     * \param queue a queue id
     * \return a short name ("uie3", "h2a", "icdma1", "mpe12", ...)
     */
    static std::string GetName(uint32_t queue)
    {
        std::ostringstream os;
        switch (GetKind(queue))
        {
        case UIE:
            os << "uie" << queue - UIE_FIRST;
            break;
        case RDMA_TX_ENGINE:
            os << "rdma-tx" << queue - RDMA_TX_FIRST;
            break;
        case RDMA_RX_ENGINE:
            os << "rdma-rx" << queue - RDMA_RX_FIRST;
            break;
        case H2A_DMA:
            os << "h2a";
            break;
        case A2H_DMA:
            os << "a2h";
            break;
        case ICDMA:
            os << "icdma" << queue - ICDMA_FIRST;
            break;
        case MPE:
            os << "mpe" << queue - MPE_FIRST;
            break;
        case BARRIER_CONFIG_ENGINE:
            os << "barrier-config";
            break;
        case DATAGRAM_TX:
            os << "datagram-tx" << queue - DATAGRAM_TX_FIRST;
            break;
        case DATAGRAM_RX:
            os << "datagram-rx" << queue - DATAGRAM_RX_FIRST;
            break;
        default:
            os << "invalid-0x" << std::hex << queue;
        }
        return os.str();
    }
};

} // namespace ns3

#endif /* PYXIS_QUEUE_MAP_H */
