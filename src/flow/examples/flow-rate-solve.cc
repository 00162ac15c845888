/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flow
 * flow-rate-solve: replay a FlowRateSolver instance read from standard input and print the
 * max-min fair rates. One command a line ('#' starts a comment):
 *
 *     link CAPACITY            add a link (indices 0, 1, ... in order), capacity in bit/s
 *     flow LINK [LINK ...]     add a flow over these links (numbered 0, 1, ... in input order)
 *     remove FLOW              remove a flow (by its number)
 *     capacity LINK CAPACITY   change a link's capacity
 *     solve                    re-solve everything from scratch (the rates must not change)
 *
 * At the end of the input it prints "FLOW RATE" for every flow not removed, in number order,
 * the rate with 17 significant digits. Bad input: "stdin:LINE: message" and exit status 1.
 * test/python/test_flow_solver.py checks it against an independent reference.
 */

#include "ns3/flow-rate-solver.h"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \param in a word \param what its meaning \return it as an unsigned integer
uint32_t
ParseIndex(const std::string& in, const char* what)
{
    std::size_t used = 0;
    unsigned long v = 0;
    try
    {
        v = std::stoul(in, &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    if (used != in.size() || in.empty() || in[0] == '-' || v > UINT32_MAX)
    {
        throw std::invalid_argument(std::string(what) + " '" + in +
                                    "' is not a non-negative integer");
    }
    return static_cast<uint32_t>(v);
}

/// \param in a word \return it as a capacity in bit/s
double
ParseCapacity(const std::string& in)
{
    std::size_t used = 0;
    double v = 0;
    try
    {
        v = std::stod(in, &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    if (used != in.size() || in.empty())
    {
        throw std::invalid_argument("capacity '" + in + "' is not a number");
    }
    return v;
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc != 1)
    {
        std::cerr << "usage: " << argv[0]
                  << " < INSTANCE (see the program's source for the format)\n";
        return 2;
    }
    FlowRateSolver solver;
    // The n-th 'flow' line is flow n; its solver identifier (which RemoveFlow frees for reuse).
    std::vector<FlowRateSolver::FlowId> ids;
    std::vector<bool> removed;
    std::string line;
    uint64_t lineNo = 0;
    try
    {
        while (std::getline(std::cin, line))
        {
            ++lineNo;
            const auto hash = line.find('#');
            if (hash != std::string::npos)
            {
                line.erase(hash);
            }
            std::istringstream words(line);
            std::vector<std::string> w;
            for (std::string s; words >> s;)
            {
                w.push_back(s);
            }
            if (w.empty())
            {
                continue;
            }
            if (w[0] == "link" && w.size() == 2)
            {
                solver.AddLink(ParseCapacity(w[1]));
            }
            else if (w[0] == "flow" && w.size() >= 2)
            {
                std::vector<FlowRateSolver::LinkId> links;
                for (std::size_t i = 1; i < w.size(); ++i)
                {
                    links.push_back(ParseIndex(w[i], "link"));
                }
                ids.push_back(solver.AddFlow(links));
                removed.push_back(false);
            }
            else if (w[0] == "remove" && w.size() == 2)
            {
                const uint32_t n = ParseIndex(w[1], "flow");
                if (n >= ids.size() || removed[n])
                {
                    throw std::invalid_argument("flow " + w[1] + " was not added or is removed");
                }
                solver.RemoveFlow(ids[n]);
                removed[n] = true;
            }
            else if (w[0] == "capacity" && w.size() == 3)
            {
                solver.SetCapacity(ParseIndex(w[1], "link"), ParseCapacity(w[2]));
            }
            else if (w[0] == "solve" && w.size() == 1)
            {
                solver.Solve();
            }
            else
            {
                throw std::invalid_argument("expected 'link CAPACITY', 'flow LINK...', "
                                            "'remove FLOW', 'capacity LINK CAPACITY' or 'solve', "
                                            "got '" +
                                            line + "'");
            }
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "stdin:" << lineNo << ": " << e.what() << "\n";
        return 1;
    }
    for (std::size_t n = 0; n < ids.size(); ++n)
    {
        if (!removed[n])
        {
            std::printf("%zu %.17g\n", n, solver.GetRate(ids[n]));
        }
    }
    return 0;
}
