/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bounded output: the switch buffer time series (BufferSampler) and the output budget
// (OutputBudget). The series is checked against conservation laws of the buffer it samples (its
// largest sample is the buffer's peak, its last sample the drained buffer), against the same run
// without sampling (no event added, same results), and through the HDF5 file; the budget against
// its definition (the estimate within budget after downsampling, every workload's last delivery
// kept, the summary untouched).

#include "ns3/buffer-sampler.h"
#include "ns3/experiment.h"
#include "ns3/output-budget.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/results-writer.h"
#include "ns3/scenario-loader.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdio>
#include <hdf5.h>
#include <map>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/**
 * Run an 8-accelerator single-switch pod: a 7:1 incast of 64 KiB messages (the switch buffer
 * fills behind the receiver's port) plus a 4 KiB all-to-all.
 * \param interval output.sample-interval
 * \param budget output.budget
 * \return the results (not written)
 */
RunResults
RunSmallPod(const std::string& interval, const std::string& budget)
{
    const std::string text = "name: output-test\n"
                             "pod: {accelerators: 8, switch: {radix: 8}}\n"
                             "workloads:\n"
                             "  - {kind: incast, senders: 7, receiver: 0, size: 64KiB}\n"
                             "  - {kind: all-to-all, size: 4KiB}\n"
                             "output: {progress: false, sample-interval: " +
                             interval + ", budget: " + budget + "}\n";
    const Scenario s = ScenarioLoader::LoadString(text, "output-test.yaml", {});
    Experiment::Options o;
    o.writeResults = false;
    o.printSummary = false;
    o.progress = false;
    return Experiment::Run(s, o);
}

} // namespace

/**
 * The switch buffer series of a run: rows ordered by switch and time, on interval boundaries;
 * per switch, the largest max_bytes is the switch's peak occupancy and the last end_bytes is 0
 * (every message delivered, the buffer drained: conservation). Sampling adds no event: the same
 * run without the series executes the same number of events with the same delivery times. The
 * series survives the HDF5 file unchanged.
 */
class PodBufferSeriesTestCase : public TestCase
{
  public:
    PodBufferSeriesTestCase()
        : TestCase("switch buffer series: peak, drained end, no event added, file round trip")
    {
    }

  private:
    void DoRun() override
    {
        const RunResults r = RunSmallPod("100ns", "0");
        const RunResults off = RunSmallPod("0", "0");
        const auto& ts = r.bufferSeries;
        NS_TEST_ASSERT_MSG_EQ(ts.intervalPs, 100000, "interval in ps");
        NS_TEST_ASSERT_MSG_EQ(ts.switchNames.size(), r.switches, "one name per switch");
        NS_TEST_ASSERT_MSG_GT(ts.sw.size(), 1, "the incast fills the buffer: rows");
        std::map<uint32_t, uint64_t> peak;
        std::map<uint32_t, uint64_t> end;
        for (size_t i = 0; i < ts.sw.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(ts.timePs[i] % ts.intervalPs, 0, "on an interval boundary");
            if (i > 0 && ts.sw[i] == ts.sw[i - 1])
            {
                NS_TEST_ASSERT_MSG_GT(ts.timePs[i], ts.timePs[i - 1], "time increases");
            }
            NS_TEST_ASSERT_MSG_GT_OR_EQ(ts.maxBytes[i], ts.endBytes[i], "max >= end");
            peak[ts.sw[i]] = std::max(peak[ts.sw[i]], ts.maxBytes[i]);
            end[ts.sw[i]] = ts.endBytes[i];
        }
        uint64_t largest = 0;
        for (const auto& [sw, p] : peak)
        {
            largest = std::max(largest, p);
            NS_TEST_EXPECT_MSG_EQ(end[sw], 0, "switch " << sw << " drained at the end");
        }
        std::printf("series: %zu rows, largest sample %lu B, peak %lu B\n",
                    ts.sw.size(),
                    static_cast<unsigned long>(largest),
                    static_cast<unsigned long>(r.peakSwitchBufferBytes));
        NS_TEST_EXPECT_MSG_EQ(largest, r.peakSwitchBufferBytes, "largest sample = peak");
        NS_TEST_EXPECT_MSG_GT(largest, 64 * 1024, "the incast queues more than one message");

        NS_TEST_EXPECT_MSG_EQ(off.bufferSeries.sw.size(), 0, "no series when off");
        NS_TEST_EXPECT_MSG_EQ(r.events, off.events, "sampling adds no event");
        NS_TEST_ASSERT_MSG_EQ(r.messages.deliverPs.size(), off.messages.deliverPs.size(), "rows");
        NS_TEST_EXPECT_MSG_EQ((r.messages.deliverPs == off.messages.deliverPs),
                              true,
                              "same delivery times with and without the series");

        const std::string path = CreateTempDirFilename("output-test.h5");
        ResultsWriter::Write(path, r);
        const RunResults back = ResultsWriter::Read(path);
        std::remove(path.c_str());
        NS_TEST_EXPECT_MSG_EQ(back.bufferSeries.intervalPs, ts.intervalPs, "interval read back");
        NS_TEST_EXPECT_MSG_EQ((back.bufferSeries.switchNames == ts.switchNames), true, "names");
        NS_TEST_EXPECT_MSG_EQ((back.bufferSeries.sw == ts.sw), true, "switch column");
        NS_TEST_EXPECT_MSG_EQ((back.bufferSeries.timePs == ts.timePs), true, "time column");
        NS_TEST_EXPECT_MSG_EQ((back.bufferSeries.maxBytes == ts.maxBytes), true, "max column");
        NS_TEST_EXPECT_MSG_EQ((back.bufferSeries.endBytes == ts.endBytes), true, "end column");
    }
};

/**
 * Coarsening by hand: rows of one switch at intervals 0, 1, 3 (10 ps each) merged by 2 give
 * intervals [0, 20) (max of both, end of the second) and [20, 40) (the third alone); a second
 * switch's rows are never merged with the first's.
 */
class PodBufferCoarsenTestCase : public TestCase
{
  public:
    PodBufferCoarsenTestCase()
        : TestCase("switch buffer series coarsened by hand")
    {
    }

  private:
    void DoRun() override
    {
        RunResults::BufferSeries s;
        s.intervalPs = 10;
        s.sw = {0, 0, 0, 1};
        s.timePs = {0, 10, 30, 10};
        s.maxBytes = {500, 300, 700, 900};
        s.endBytes = {200, 100, 0, 0};
        BufferSampler::Coarsen(s, 2);
        NS_TEST_ASSERT_MSG_EQ(s.intervalPs, 20, "interval doubled");
        NS_TEST_ASSERT_MSG_EQ(s.sw.size(), 3, "rows 0 and 1 merged");
        NS_TEST_EXPECT_MSG_EQ((s.sw == std::vector<uint32_t>{0, 0, 1}), true, "switches");
        NS_TEST_EXPECT_MSG_EQ((s.timePs == std::vector<int64_t>{0, 20, 0}), true, "times");
        NS_TEST_EXPECT_MSG_EQ((s.maxBytes == std::vector<uint64_t>{500, 700, 900}), true, "max");
        NS_TEST_EXPECT_MSG_EQ((s.endBytes == std::vector<uint64_t>{100, 0, 0}), true, "end");
    }
};

/**
 * The output budget: with no budget every row is kept; with a budget below the estimate of the
 * results file, the estimate after downsampling is within budget, one message row in k is kept
 * (k >= 2) plus each workload's last delivery and completion (so completion times computed from
 * the table are exact), and the summary still counts every message. The estimate is of the file
 * as stored (compressed columns, OutputBudget): the uncompressed tables count every row (45 B
 * per message row, 28 B per series row) and are larger than the stored columns.
 */
class PodOutputBudgetTestCase : public TestCase
{
  public:
    PodOutputBudgetTestCase()
        : TestCase("output budget downsamples the series and the message table")
    {
    }

  private:
    void DoRun() override
    {
        const RunResults full = RunSmallPod("10ns", "0");
        const uint64_t n = full.messages.src.size();
        NS_TEST_ASSERT_MSG_EQ(n, 7 + 8 * 7, "7 incast + 56 all-to-all messages");
        NS_TEST_EXPECT_MSG_EQ(full.output.messagesSampledEvery, 1, "unlimited: all kept");
        NS_TEST_EXPECT_MSG_EQ(full.output.messagesTotal, n, "rows counted");
        NS_TEST_EXPECT_MSG_EQ(full.output.estimatedBytes, OutputBudget::Estimate(full), "estimate");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(OutputBudget::EstimateUncompressed(full),
                                    n * OutputBudget::MESSAGE_ROW_BYTES +
                                        full.bufferSeries.sw.size() *
                                            OutputBudget::SERIES_ROW_BYTES,
                                    "the uncompressed estimate counts every row");

        // The parts of the estimate: the message table, the series, the rest.
        RunResults noMessages = full;
        noMessages.messages = RunResults::Messages();
        RunResults neither = noMessages;
        neither.bufferSeries.sw.clear();
        neither.bufferSeries.timePs.clear();
        neither.bufferSeries.maxBytes.clear();
        neither.bufferSeries.endBytes.clear();
        const uint64_t others = OutputBudget::Estimate(neither);
        const uint64_t messages = full.output.estimatedBytes - OutputBudget::Estimate(noMessages);
        const uint64_t series = OutputBudget::Estimate(noMessages) - others;
        NS_TEST_EXPECT_MSG_GT(messages, 0, "the message table takes room");
        NS_TEST_EXPECT_MSG_GT(series, 0, "the series takes room");
        // A table of one row still has its datasets' headers and chunk indexes: what thinning
        // can save is the rest.
        RunResults oneRow = full;
        for (auto* col : {&oneRow.messages.src, &oneRow.messages.dst, &oneRow.messages.workload})
        {
            col->resize(1);
        }
        oneRow.messages.bytes.resize(1);
        oneRow.messages.tclass.resize(1);
        oneRow.messages.postPs.resize(1);
        oneRow.messages.deliverPs.resize(1);
        oneRow.messages.completePs.resize(1);
        const uint64_t table = OutputBudget::Estimate(oneRow) - OutputBudget::Estimate(noMessages);
        // A budget that leaves room for about a third of the message rows' bytes; the series
        // (its datasets' overhead included) takes more than a quarter of the smaller budget
        // below, which coarsens it first.
        const uint64_t budget = others + series + table + (messages - table) / 3;
        const RunResults cut = RunSmallPod("10ns", std::to_string(budget));
        const auto& o = cut.output;
        std::printf("budget %lu B: estimate %lu B, one row in %u (%zu of %lu), series %ux "
                    "coarser (%zu of %zu rows), after %lu B\n",
                    static_cast<unsigned long>(budget),
                    static_cast<unsigned long>(o.estimatedBytes),
                    o.messagesSampledEvery,
                    cut.messages.src.size(),
                    static_cast<unsigned long>(n),
                    o.seriesCoarsenedBy,
                    cut.bufferSeries.sw.size(),
                    full.bufferSeries.sw.size(),
                    static_cast<unsigned long>(OutputBudget::Estimate(cut)));
        // The same tables (the budget changes the output, not the simulation); the scenario
        // text stored in the file differs by the budget's digits.
        RunResults sameTables = full;
        sameTables.scenarioText = cut.scenarioText;
        NS_TEST_EXPECT_MSG_EQ(o.estimatedBytes,
                              OutputBudget::Estimate(sameTables),
                              "the estimate of the same tables");
        NS_TEST_EXPECT_MSG_EQ(o.messagesTotal, n, "rows before");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(o.messagesSampledEvery, 2, "rows thinned");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(OutputBudget::Estimate(cut), budget, "within budget");
        const uint64_t k = o.messagesSampledEvery;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(cut.messages.src.size(),
                                    (n + k - 1) / k + 2 * cut.workloadNames.size(),
                                    "one in k plus the kept extremes");
        for (uint32_t w = 0; w < full.workloadNames.size(); ++w)
        {
            int64_t a = -1;
            int64_t b = -1;
            for (size_t i = 0; i < n; ++i)
            {
                a = full.messages.workload[i] == w ? std::max(a, full.messages.deliverPs[i]) : a;
            }
            for (size_t i = 0; i < cut.messages.src.size(); ++i)
            {
                b = cut.messages.workload[i] == w ? std::max(b, cut.messages.deliverPs[i]) : b;
            }
            NS_TEST_EXPECT_MSG_EQ(b, a, "workload " << w << ": last delivery kept");
        }
        NS_TEST_EXPECT_MSG_EQ(cut.bytesDelivered, full.bytesDelivered, "summary counts all");
        NS_TEST_EXPECT_MSG_EQ(cut.peakSwitchBufferBytes,
                              full.peakSwitchBufferBytes,
                              "summary peak unchanged");

        // The series first: a budget under four times the series coarsens it (to a quarter of
        // the budget, or to one interval over the run), and the coarser series keeps the peak.
        const uint64_t small = 2 * series;
        const RunResults coarse = RunSmallPod("10ns", std::to_string(small));
        NS_TEST_EXPECT_MSG_GT(coarse.output.seriesCoarsenedBy, 1, "series coarsened");
        NS_TEST_EXPECT_MSG_LT(coarse.bufferSeries.sw.size(),
                              full.bufferSeries.sw.size(),
                              "fewer series rows");
        uint64_t largest = 0;
        for (uint64_t m : coarse.bufferSeries.maxBytes)
        {
            largest = std::max(largest, m);
        }
        NS_TEST_EXPECT_MSG_EQ(largest, full.peakSwitchBufferBytes, "coarsening keeps the peak");
        NS_TEST_EXPECT_MSG_EQ(coarse.bytesDelivered, full.bytesDelivered, "summary counts all");
    }
};

/**
 * A run stored as a group of a larger file (a study file's /runs/FABRIC/WORKLOAD: a results file
 * copied whole) reads back as the results file itself: ResultsWriter::Read(path,
 * group) reads the same layout relative to the group, so every table, the series and the
 * summary are those of Read(file). A missing group, and a group that is not a run, throw errors
 * naming the file and the group.
 */
class PodReadGroupTestCase : public TestCase
{
  public:
    PodReadGroupTestCase()
        : TestCase("a run read from a group of a larger file equals its results file")
    {
    }

  private:
    void DoRun() override
    {
        const RunResults r = RunSmallPod("100ns", "0");
        const std::string runFile = CreateTempDirFilename("read-group-run.h5");
        const std::string study = CreateTempDirFilename("read-group-study.h5");
        ResultsWriter::Write(runFile, r);

        // The study layout: the run file's root group copied whole into /runs/ethernet/mixed.
        hid_t src = H5Fopen(runFile.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        hid_t dst = H5Fcreate(study.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
        H5Pset_create_intermediate_group(lcpl, 1);
        const herr_t copied = H5Ocopy(src, ".", dst, "runs/ethernet/mixed", H5P_DEFAULT, lcpl);
        H5Pclose(lcpl);
        H5Fclose(dst);
        H5Fclose(src);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(copied, 0, "H5Ocopy of the run file's root group");

        const RunResults file = ResultsWriter::Read(runFile);
        const RunResults root = ResultsWriter::Read(runFile, "/");
        const RunResults group = ResultsWriter::Read(study, "/runs/ethernet/mixed");
        for (const RunResults* g : {&root, &group})
        {
            NS_TEST_EXPECT_MSG_EQ(g->scenarioText, file.scenarioText, "scenario text");
            NS_TEST_EXPECT_MSG_EQ(g->scenarioName, file.scenarioName, "scenario name");
            NS_TEST_EXPECT_MSG_EQ((g->workloadNames == file.workloadNames), true, "workloads");
            NS_TEST_EXPECT_MSG_EQ((g->messages.postPs == file.messages.postPs), true, "post");
            NS_TEST_EXPECT_MSG_EQ((g->messages.completePs == file.messages.completePs),
                                  true,
                                  "completion");
            NS_TEST_EXPECT_MSG_EQ((g->links.name == file.links.name), true, "link names");
            NS_TEST_EXPECT_MSG_EQ((g->links.txWireBytes == file.links.txWireBytes),
                                  true,
                                  "link wire bytes");
            NS_TEST_EXPECT_MSG_EQ((g->bufferSeries.maxBytes == file.bufferSeries.maxBytes),
                                  true,
                                  "series");
            NS_TEST_EXPECT_MSG_EQ(g->events, file.events, "summary: events");
            NS_TEST_EXPECT_MSG_EQ(g->peakSwitchBufferBytes,
                                  file.peakSwitchBufferBytes,
                                  "summary: peak buffer");
            NS_TEST_EXPECT_MSG_EQ((g->dropsByReason == file.dropsByReason), true, "drops");
        }
        NS_TEST_EXPECT_MSG_EQ(file.messages.postPs.size(), r.messages.postPs.size(), "rows");

        std::string missing;
        try
        {
            ResultsWriter::Read(study, "/runs/ethernet/none");
        }
        catch (const std::runtime_error& e)
        {
            missing = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(missing.rfind(study + ":/runs/ethernet/none: no group", 0),
                              0,
                              "error names file and group: " << missing);
        std::string notRun;
        try
        {
            ResultsWriter::Read(study, "/runs");
        }
        catch (const std::runtime_error& e)
        {
            notRun = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(notRun.rfind(study + ":/runs: no attribute podsim_version", 0),
                              0,
                              "a group that is not a run: " << notRun);
        std::remove(runFile.c_str());
        std::remove(study.c_str());
    }
};

/**
 * \ingroup pod-tests
 * Bounded output (output.budget).
 */
class PodOutputTestSuite : public PicosecondTestSuite
{
  public:
    PodOutputTestSuite()
        : PicosecondTestSuite("pod-output", UNIT)
    {
        AddTestCase(new PodBufferSeriesTestCase, TestCase::QUICK);
        AddTestCase(new PodBufferCoarsenTestCase, TestCase::QUICK);
        AddTestCase(new PodOutputBudgetTestCase, TestCase::QUICK);
        AddTestCase(new PodReadGroupTestCase, TestCase::QUICK);
    }
};

/// Static instance.
static PodOutputTestSuite g_podOutputTestSuite;
