/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_VOQ_TABLE_H
#define CELL_FABRIC_VOQ_TABLE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief The Pyxis VOQ map of a Fabric Adapter (Pyxis spec 10.2, 10.7.3, 10.7.3.1, 10.7.4):
 * 13-bit Pyxis VOQ ids to Juniper {VPFE, OQ}, and each VOQ's Page Generator
 * priority and occupancy profile, all programmed by software.
 *
 * - A Pyxis VOQ id has 13 bits (8K VOQs). VPFE[10:0] = map[VOQ[12:2]] through a 2K x 11-bit
 *   table; VPFE_OQ = VOQ[1:0] (4 OQs per VPFE). The Juniper VOQ is {VPFE[10:0], VPFE_OQ[4:0]}.
 * - A VPFE is one cluster of one chip. Legal VPFEs have VPFE[1:0] != 3 (10.2).
 * - The fabric's numbering of VPFEs is not in the spec (an assumption): the clusters of the pod
 *   in order (chip * clusters + cluster) take the legal VPFEs in order, {0, 1, 2, 4, 5, 6, ...},
 *   so 1536 clusters (384 chips of 4 clusters) have a VPFE.
 * - The default map (SetDefaultMap) sends VOQ group g (VOQ[12:2]) to the g-th legal VPFE, so the
 *   default VOQ id of {chip, cluster, OQ} is (chip * clusters + cluster) * 4 + OQ; groups 1536 to
 *   2047 are unmapped. Software may remap any group to any legal VPFE (10.2: collectives keep
 *   their VOQ ids whichever chips run them).
 * - Each VOQ is high or low priority for the Page Generator's arbitration (10.7.3; default low)
 *   and names one of the 8 occupancy profiles (10.7.3.1; default 0).
 */
class CellFabricVoqTable
{
  public:
    static constexpr uint32_t VOQ_BITS = 13;                //!< Pyxis VOQ id width (10.2)
    static constexpr uint32_t VOQS = 1U << VOQ_BITS;        //!< 8K VOQ ids
    static constexpr uint32_t OQS_PER_VPFE = 4;             //!< VOQ[1:0] (10.2)
    static constexpr uint32_t GROUPS = VOQS / OQS_PER_VPFE; //!< map entries, VOQ[12:2]
    static constexpr uint32_t VPFE_BITS = 11;               //!< VPFE[10:0] (10.2)
    static constexpr uint32_t VPFES = 1U << VPFE_BITS;      //!< VPFE space
    static constexpr uint32_t LEGAL_VPFES = VPFES / 4 * 3;  //!< VPFE[1:0] != 3: 1536
    static constexpr uint32_t PROFILES = 8;                 //!< occupancy profiles (10.7.3.1)
    static constexpr uint32_t UNMAPPED = UINT32_MAX;        //!< a map entry not programmed

    /// Where a VOQ id goes.
    struct Target
    {
        uint32_t vpfe{0};    //!< VPFE[10:0]
        uint32_t oq{0};      //!< VPFE_OQ, VOQ[1:0]
        uint32_t chip{0};    //!< destination chip of the VPFE
        uint32_t cluster{0}; //!< destination cluster of the VPFE
    };

    /**
     * An empty table (every group unmapped, every VOQ low priority and profile 0).
     * \param clusters clusters per chip (VPFE numbering)
     */
    explicit CellFabricVoqTable(uint32_t clusters = 4);

    /**
     * \param vpfe a VPFE
     * \return true if it is below 2^11 and VPFE[1:0] != 3 (10.2)
     */
    static bool IsLegalVpfe(uint32_t vpfe);

    /**
     * \param chip a chip
     * \param cluster one of its clusters
     * \return the VPFE of that cluster, or UNMAPPED if the VPFE space has none for it
     */
    uint32_t GetVpfe(uint32_t chip, uint32_t cluster) const;

    /**
     * \param vpfe a legal VPFE
     * \param[out] chip its chip
     * \param[out] cluster its cluster
     */
    void GetChipCluster(uint32_t vpfe, uint32_t& chip, uint32_t& cluster) const;

    /// Program the default map: group g to the g-th legal VPFE (see the class description).
    void SetDefaultMap();

    /**
     * Program one map entry (10.2: software configures the table).
     * \param group VOQ[12:2], below 2048
     * \param vpfe a legal VPFE, or UNMAPPED to clear the entry
     * \param[out] error why, if refused
     * \return true if programmed
     */
    bool Map(uint32_t group, uint32_t vpfe, std::string& error);

    /**
     * Resolve a VOQ id.
     * \param voq the 13-bit Pyxis VOQ id
     * \param[out] t where it goes
     * \param[out] error why, if refused (an id of 2^13 or more, or an unmapped group)
     * \return true if resolved
     */
    bool Lookup(uint32_t voq, Target& t, std::string& error) const;

    /**
     * \param chip destination chip
     * \param cluster destination cluster
     * \param oq OQ (0 to 3)
     * \return the VOQ id of the default map, or UNMAPPED if it has none
     */
    uint32_t GetDefaultVoq(uint32_t chip, uint32_t cluster, uint32_t oq) const;

    /**
     * Configure a VOQ's Page Generator priority (10.7.3).
     * \param voq the VOQ id (below 2^13)
     * \param high true: high priority
     */
    void SetHighPriority(uint32_t voq, bool high);

    /**
     * \param voq the VOQ id
     * \return true if it is high priority
     */
    bool IsHighPriority(uint32_t voq) const;

    /**
     * Configure a VOQ's occupancy profile (10.7.3.1).
     * \param voq the VOQ id (below 2^13)
     * \param profile 0 to 7
     */
    void SetProfile(uint32_t voq, uint32_t profile);

    /**
     * \param voq the VOQ id
     * \return its occupancy profile
     */
    uint32_t GetProfile(uint32_t voq) const;

  private:
    uint32_t m_clusters;            //!< clusters per chip
    std::vector<uint32_t> m_map;    //!< VPFE per group (VOQ[12:2])
    std::vector<bool> m_high;       //!< high priority per VOQ id
    std::vector<uint8_t> m_profile; //!< occupancy profile per VOQ id
};

} // namespace ns3

#endif /* CELL_FABRIC_VOQ_TABLE_H */
