/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-scenario.h"

#include <cstdint>
#include <vector>

namespace ns3
{

namespace
{

/// What the checks of one scenario share.
struct VpodCheck
{
    std::vector<int32_t> member; //!< virtual pod of each accelerator (-1: none)
    std::string field;           //!< offending key
    std::string message;         //!< why

    /// \param a an accelerator \return its virtual pod, as text
    std::string Of(uint32_t a) const
    {
        return member[a] < 0 ? std::string("no virtual pod")
                             : "virtual pod " + std::to_string(member[a]) +
                                   " (pod.ualink.virtual-pods[" + std::to_string(member[a]) + "])";
    }

    /**
     * \brief Check that a set of accelerators that talk to each other lies in one virtual pod.
     * \param accs the accelerators
     * \param key the key to name on failure
     * \param what what they are, for the message
     * \return true if they do
     */
    bool Together(const std::vector<uint32_t>& accs,
                  const std::string& key,
                  const std::string& what)
    {
        if (accs.empty())
        {
            return true;
        }
        for (uint32_t a : accs)
        {
            if (member[a] < 0)
            {
                field = key;
                message = what + " uses accelerator " + std::to_string(a) +
                          ", which is in no virtual pod of pod.ualink.virtual-pods (excluded "
                          "from the switches' route tables, section 8.4)";
                return false;
            }
        }
        for (uint32_t a : accs)
        {
            if (member[a] != member[accs.front()])
            {
                field = key;
                message = what + " crosses virtual pods: accelerator " +
                          std::to_string(accs.front()) + " is in " + Of(accs.front()) +
                          ", accelerator " + std::to_string(a) + " in " + Of(a) +
                          "; the route tables deny traffic between virtual pods (sections "
                          "1.1, 10.7.1): keep each workload inside one virtual pod, or use a "
                          "deny-route fault to drop traffic on purpose";
                return false;
            }
        }
        return true;
    }

    /**
     * \param g a group (empty: the whole pod)
     * \return its accelerators
     */
    std::vector<uint32_t> Group(const std::vector<uint32_t>& g) const
    {
        if (!g.empty())
        {
            return g;
        }
        std::vector<uint32_t> all(member.size());
        for (uint32_t a = 0; a < all.size(); ++a)
        {
            all[a] = a;
        }
        return all;
    }
};

} // namespace

bool
UalinkScenario::CheckVirtualPods(const Scenario& sc, std::string& field, std::string& message)
{
    const auto& vpods = sc.pod.ualink.virtualPods;
    if (vpods.empty())
    {
        return true;
    }
    const uint32_t n = sc.pod.accelerators;
    VpodCheck c;
    c.member.assign(n, -1);
    for (std::size_t v = 0; v < vpods.size(); ++v)
    {
        for (uint32_t a : vpods[v])
        {
            c.member.at(a) = static_cast<int32_t>(v);
        }
    }
    bool ok = true;
    for (std::size_t wi = 0; wi < sc.workloads.size() && ok; ++wi)
    {
        const Scenario::Workload& w = sc.workloads[wi];
        const std::string p = "workloads[" + std::to_string(wi) + "]";
        const std::string name = "workload '" + w.name + "' (" + w.kind + ")";
        if (w.kind == "incast")
        {
            ok = c.Together({w.receiver}, p + ".receiver", name);
            for (std::size_t j = 0; j < w.senderList.size() && ok; ++j)
            {
                ok = c.Together({w.receiver, w.senderList[j]},
                                p + ".sender-list[" + std::to_string(j) + "]",
                                name);
            }
            // The default senders: the `senders` accelerators after the receiver (wrapping).
            for (uint32_t k = 1; w.senderList.empty() && k <= w.senders && ok; ++k)
            {
                ok = c.Together({w.receiver, (w.receiver + k) % n},
                                p + ".senders",
                                name + " with its default senders (the " +
                                    std::to_string(w.senders) +
                                    " accelerators after the receiver; give a sender-list)");
            }
        }
        else if (w.kind == "all-to-all" || w.kind == "permutation")
        {
            ok = c.Together(c.Group({}), p + ".kind", name + " over the whole pod");
        }
        else if (w.kind == "collective")
        {
            ok = c.Together(c.Group(w.coll.group),
                            w.coll.group.empty() ? p + ".kind" : p + ".group",
                            w.coll.group.empty() ? name + " over the whole pod (no group)"
                                                 : name + " on its group");
        }
        else if (w.kind == "dag")
        {
            const std::string in = w.dagFile.empty() ? "" : " (nodes from " + w.dagFile + ")";
            for (std::size_t j = 0; j < w.nodes.size() && ok; ++j)
            {
                const Scenario::DagNode& d = w.nodes[j];
                const std::string np = p + ".nodes[" + std::to_string(j) + "]";
                const std::string nn = name + " node '" + d.name + "'" + in;
                if (d.kind == "send")
                {
                    ok = c.Together({d.src, d.dst}, np + ".dst", nn);
                }
                else if (d.kind == "collective")
                {
                    ok = c.Together(c.Group(d.coll.group),
                                    d.coll.group.empty() ? np + ".kind" : np + ".group",
                                    nn);
                }
            }
        }
    }
    if (!ok)
    {
        field = c.field;
        message = c.message;
    }
    return ok;
}

} // namespace ns3
