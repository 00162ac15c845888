/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_OCCUPANCY_LIMITER_H
#define CELL_FABRIC_OCCUPANCY_LIMITER_H

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief The Tx Page Occupancy Limiter and the QPage table of a Fabric Adapter (Pyxis spec
 * 10.7[2-3], 10.7.3.1, 10.7.6: the admission of generated pages).
 *
 * A generated page takes a QPage entry from a pool shared by the chip's clusters (about 1024,
 * 10.7.6) and counts as outstanding on its VOQ until the QPage is retired, when FO dequeues the
 * page (10.7.5-6). Page generation for a VOQ is inhibited at several levels (10.7.3.1):
 *
 * - Per VOQ and source cluster (one count per Page Generator), against one of 8 profiles of
 *   XOFF/XON thresholds with hysteresis: the VOQ stops generating when its count reaches XOFF
 *   and resumes when it has dropped to XON (XON below XOFF). The model's reading of "exceeds
 *   XOFF" and "drops below XON": at most XOFF pages are outstanding; XON = XOFF - 1 is a plain
 *   limit of XOFF.
 * - Per source cluster, the aggregate of its high-priority and of its low-priority VOQs against
 *   a limit each (the occupancy-tracking groups).
 * - Per source cluster, its total QPages against a cap (its fair share of the pool).
 * - The pool itself: no free QPage, no page.
 *
 * Each entry is found again by a handle (the job, the page and its epoch at the source), so a
 * grant that comes back after its job is gone still retires its QPage.
 */
class CellFabricOccupancyLimiter
{
  public:
    static constexpr uint32_t PROFILES = 8; //!< occupancy profiles (10.7.3.1)

    /// XOFF/XON thresholds of one profile, in outstanding pages.
    struct Profile
    {
        uint32_t xoff{64}; //!< generation stops when this many pages are outstanding
        uint32_t xon{63};  //!< and resumes when they have dropped to this many
    };

    /// What stops a VOQ from generating a page.
    enum Block
    {
        NONE,    //!< a page may be generated
        XOFF,    //!< the VOQ is in XOFF (its profile)
        GROUP,   //!< its priority group is at its limit
        CLUSTER, //!< its source cluster is at its QPage cap
        POOL,    //!< no free QPage
    };

    /// Counters.
    struct Stats
    {
        uint64_t xoffs{0};     //!< VOQs that went to XOFF
        uint64_t xons{0};      //!< VOQs that went back to XON
        uint32_t peakInUse{0}; //!< most QPages in use at once
    };

    CellFabricOccupancyLimiter();

    /**
     * Size the limiter. All profiles become {xoff, xoff - 1} of \p defaultXoff.
     * \param qpages QPage entries of the chip (10.7.6)
     * \param clusterQPages cap of one source cluster's QPages
     * \param highGroupPages limit of one source cluster's high-priority group
     * \param lowGroupPages limit of one source cluster's low-priority group
     * \param defaultXoff XOFF of every profile (the XON one below)
     */
    void Configure(uint32_t qpages,
                   uint32_t clusterQPages,
                   uint32_t highGroupPages,
                   uint32_t lowGroupPages,
                   uint32_t defaultXoff);

    /**
     * \param xoff XOFF threshold
     * \param xon XON threshold
     * \param[out] error why, if not legal
     * \return true if 1 <= xoff and xon < xoff
     */
    static bool CheckProfile(uint32_t xoff, uint32_t xon, std::string& error);

    /**
     * Program a profile (aborts on an illegal one; see CheckProfile).
     * \param i the profile, 0 to 7
     * \param xoff XOFF threshold
     * \param xon XON threshold
     */
    void SetProfile(uint32_t i, uint32_t xoff, uint32_t xon);

    /**
     * \param i the profile
     * \return its thresholds
     */
    const Profile& GetProfile(uint32_t i) const;

    /**
     * \param cluster source cluster
     * \param voq VOQ key of the adapter
     * \param profile the VOQ's profile
     * \param high the VOQ is high priority
     * \return what stops the VOQ from generating a page now (NONE: nothing)
     */
    Block Check(uint32_t cluster, uint64_t voq, uint32_t profile, bool high) const;

    /**
     * A page is generated: take a QPage (Check must have said NONE).
     * \param handle the page's handle (see the class description)
     * \param cluster source cluster
     * \param voq VOQ key
     * \param profile the VOQ's profile
     * \param high the VOQ is high priority
     * \return the VOQ's outstanding pages after this one
     */
    uint32_t Allocate(uint64_t handle, uint32_t cluster, uint64_t voq, uint32_t profile, bool high);

    /**
     * FO dequeued a page: retire its QPage.
     * \param handle the page's handle
     * \return false if no QPage has that handle
     */
    bool Free(uint64_t handle);

    /**
     * \param cluster source cluster
     * \param voq VOQ key
     * \return the VOQ's outstanding pages
     */
    uint32_t GetOutstanding(uint32_t cluster, uint64_t voq) const;

    /// \return (VOQ key, outstanding pages) of every VOQ with pages outstanding, all clusters
    std::vector<std::pair<uint64_t, uint32_t>> GetVoqCounts() const;

    /// \return QPages in use
    uint32_t GetInUse() const
    {
        return m_entries.size();
    }

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

  private:
    /// Count and hysteresis state of one VOQ of one source cluster.
    struct VoqCount
    {
        uint32_t pages{0}; //!< outstanding pages
        bool off{false};   //!< in XOFF
    };

    /// A QPage entry (what the model needs of 10.7.6's fields).
    struct Entry
    {
        uint32_t cluster{0}; //!< source cluster
        uint64_t voq{0};     //!< VOQ key
        uint32_t profile{0}; //!< the VOQ's profile when generated
        bool high{false};    //!< the VOQ's priority when generated
    };

    /**
     * \param cluster source cluster
     * \param voq VOQ key
     * \return the key of the per-cluster VOQ count
     */
    static std::pair<uint32_t, uint64_t> Key(uint32_t cluster, uint64_t voq)
    {
        return {cluster, voq};
    }

    uint32_t m_qpages{1024};                                 //!< pool size
    uint32_t m_clusterQPages{1024};                          //!< cap per source cluster
    uint32_t m_groupPages[2]{1024, 1024};                    //!< low and high group limits
    std::array<Profile, PROFILES> m_profiles;                //!< XOFF/XON profiles
    std::map<std::pair<uint32_t, uint64_t>, VoqCount> m_voq; //!< counts per (cluster, VOQ)
    std::vector<uint32_t> m_clusterPages;                    //!< QPages per source cluster
    std::vector<std::array<uint32_t, 2>> m_groupCount;       //!< low, high pages per cluster
    std::unordered_map<uint64_t, Entry> m_entries;           //!< QPages in use by handle
    Stats m_stats;                                           //!< counters
};

} // namespace ns3

#endif /* CELL_FABRIC_OCCUPANCY_LIMITER_H */
