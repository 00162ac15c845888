/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PICOSECOND_TEST_SUITE_H
#define PICOSECOND_TEST_SUITE_H

#include "picosecond-resolution.h"

#include "ns3/test.h"

#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief A TestSuite whose cases run at picosecond resolution.
 *
 * ns-3's test runners (podsim's build/bin/test-runner, an ns-3 source tree's test-runner and
 * test.py) construct every suite when the test libraries are loaded and run them later; this
 * suite calls EnsurePicosecondResolution() in DoSetup(), before its first case runs. That is
 * ns-3's own idiom for a suite that needs another resolution (network's DataRateTestCase1 sets
 * femtoseconds in DoRun): test.py runs each suite in a process of its own. In one process that
 * runs several suites, the resolution can change only before the first Simulator::Run, so
 * ns-3's own suites that run at nanoseconds and podsim's suites belong in separate runs
 * (test.py, or test-runner --suite=NAME).
 */
class PicosecondTestSuite : public TestSuite
{
  public:
    /**
     * \brief Constructor.
     * \param name the suite's name (test-runner --suite=NAME)
     * \param type the suite's type
     */
    PicosecondTestSuite(std::string name, Type type = UNIT)
        : TestSuite(name, type)
    {
    }

  private:
    /// Sets picosecond resolution before the suite's cases run.
    void DoSetup() override
    {
        EnsurePicosecondResolution();
    }
};

} // namespace ns3

#endif /* PICOSECOND_TEST_SUITE_H */
