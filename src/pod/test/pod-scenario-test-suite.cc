/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/fabric-units.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/scenario-schema.h"
#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

/**
 * \file
 * \ingroup pod-tests
 * The pod-scenario suite: units, the schema, the YAML loader, its errors and --set overrides.
 */

using namespace ns3;

namespace
{

/**
 * Run f and return what() of the ScenarioError it throws.
 * \param f the code to run
 * \return the message, or "(no error)" if f returned normally
 */
std::string
ErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "(no error)";
}

/**
 * Run f and return what() of the std::invalid_argument it throws.
 * \param f the code to run
 * \return the message, or "(no error)" if f returned normally
 */
std::string
InvalidOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "(no error)";
}

/**
 * \param f the code to run
 * \return whether f throws std::invalid_argument
 */
bool
Rejects(const std::function<void()>& f)
{
    return InvalidOf(f) != "(no error)";
}

/**
 * \param s a string
 * \param prefix a prefix
 * \return whether s starts with prefix
 */
bool
StartsWith(const std::string& s, const std::string& prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

/**
 * \param s a string
 * \param part a part
 * \return whether s contains part
 */
bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

/**
 * Load a scenario from text, without overrides.
 * \param text YAML
 * \param overrides --set overrides
 * \return the scenario
 */
Scenario
LoadText(const std::string& text, const std::vector<std::string>& overrides = {})
{
    return ScenarioLoader::LoadString(text, "inline.yaml", overrides);
}

/// A small valid scenario that the inline tests vary.
const std::string SMALL = "pod:\n"
                          "  accelerators: 8\n"
                          "workloads:\n"
                          "  - kind: all-to-all\n"
                          "    size: 4KiB\n";

} // namespace

/**
 * \ingroup pod-tests
 * Base of the cases that read files of test/data: finds the directory whether the runner runs in
 * the repository root (NS_TEST_SOURCEDIR is relative to it) or elsewhere in the source tree.
 */
class ScenarioFileTestCase : public TestCase
{
  public:
    /// \param name the case's name
    explicit ScenarioFileTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * \param file a file name in test/data
     * \return a path to it
     */
    std::string DataFile(const std::string& file)
    {
        const std::string relative = std::string(NS_TEST_SOURCEDIR) + "/data/" + file;
        if (std::filesystem::exists(relative))
        {
            return relative;
        }
        return CreateDataDirFilename("data/" + file);
    }
};

/**
 * \ingroup pod-tests
 * Units: sizes, times, rates and lengths, and their errors.
 */
class PodUnitsTestCase : public TestCase
{
  public:
    PodUnitsTestCase()
        : TestCase("units: sizes, times, data rates, lengths")
    {
    }

  private:
    void DoRun() override
    {
        // Sizes: the SI prefixes are powers of 1000, the IEC ones powers of 1024 (IEC 80000-13).
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("4096"), 4096, "plain bytes");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("16KiB"), 16384, "16 * 1024");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("1 MiB"), 1048576, "1024^2, space allowed");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("64MiB"), 67108864, "64 * 1024^2");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("2GiB"), 2147483648ULL, "2 * 1024^3");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("1.5kB"), 1500, "1.5 * 1000");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("3KB"), 3000, "KB is kB");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("2MB"), 2000000, "2 * 1000^2");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("1GB"), 1000000000, "1000^3");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("512B"), 512, "B suffix");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize("0.5KiB"), 512, "exact fraction");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseSize(" 7 "), 7, "white space around");
        NS_TEST_ASSERT_MSG_EQ(Contains(InvalidOf([] { FabricUnits::ParseSize("abc"); }), "'abc'"),
                              true,
                              "abc is not a size");
        NS_TEST_ASSERT_MSG_EQ(Contains(InvalidOf([] { FabricUnits::ParseSize("1.5B"); }),
                                       "not a whole number of bytes"),
                              true,
                              "half a byte");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(InvalidOf([] { FabricUnits::ParseSize("4 kb"); }), "unknown size unit 'kb'"),
            true,
            "kb (kilobit) is not a size unit");
        NS_TEST_ASSERT_MSG_EQ(Contains(InvalidOf([] { FabricUnits::ParseSize("-1"); }), "negative"),
                              true,
                              "negative size");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(InvalidOf([] { FabricUnits::ParseSize("20000000TiB"); }), "too large"),
            true,
            "2e7 * 2^40 > 2^64");
        NS_TEST_ASSERT_MSG_EQ(Rejects([] { FabricUnits::ParseSize(""); }), true, "empty size");

        // Times, exact in picoseconds (DESIGN.md rule 4).
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTimePs("13.8ns"),
                              13800,
                              "13.8 ns = 13800 ps exactly");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTime("13.8ns"), PicoSeconds(13800), "as a Time");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTime("250ns"),
                              NanoSeconds(250),
                              "SUE switch latency");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTimePs("1.5us"), 1500000, "1.5 us");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTime("2ms"), MilliSeconds(2), "2 ms");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTime("1s"), Seconds(1), "1 s");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTimePs("10ps"), 10, "10 ps");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTimePs("0"), 0, "0 needs no unit");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTimePs("0.653ns"), 653, "a UALink flit time");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTimePs("1e3ns"), 1000000, "exponent");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseTimePs("-5ns"),
                              -5000,
                              "sign kept; range is the caller's");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(InvalidOf([] { FabricUnits::ParseTime("5"); }), "needs a unit"),
            true,
            "a non-zero time needs a unit");
        NS_TEST_ASSERT_MSG_EQ(Contains(InvalidOf([] { FabricUnits::ParseTime("0.5ps"); }),
                                       "whole number of picoseconds"),
                              true,
                              "below the resolution");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(InvalidOf([] { FabricUnits::ParseTime("3min"); }), "unknown time unit"),
            true,
            "min is not a unit");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(InvalidOf([] { FabricUnits::ParseTime("1e9s"); }), "too large"),
            true,
            "1e21 ps > 2^63");

        // Data rates; ns-3's DataRate counts bit/s.
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseDataRate("800Gbps").GetBitRate(),
                              800000000000ULL,
                              "8e11");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseDataRate("400Gb/s"), DataRate("400Gbps"), "Gb/s");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseDataRateBps("100Mbps"), 100000000, "1e8");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseDataRateBps("1.25GBps"),
                              10000000000ULL,
                              "bytes/s x 8");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseDataRateBps("1.6Tbps"), 1600000000000ULL, "1.6e12");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseDataRateBps("0Gbps"),
                              0,
                              "zero parses (range is the schema's)");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(InvalidOf([] { FabricUnits::ParseDataRate("800"); }), "needs a unit"),
            true,
            "a rate needs a unit");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(InvalidOf([] { FabricUnits::ParseDataRate("fast"); }), "'fast'"),
            true,
            "not a rate");
        NS_TEST_ASSERT_MSG_EQ(Contains(InvalidOf([] { FabricUnits::ParseDataRate("10Gbit"); }),
                                       "unknown data rate unit"),
                              true,
                              "Gbit is not a rate unit");

        // Lengths in metres.
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseLengthM("3m"), 3.0, "3 m");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseLengthM("0.5m"), 0.5, "0.5 m");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseLengthM("300cm"), 3.0, "300 cm = 3 m exactly");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseLengthM("2"), 2.0, "plain metres");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseLengthM("1.5km"), 1500.0, "km");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(InvalidOf([] { FabricUnits::ParseLengthM("3ft"); }), "unknown length unit"),
            true,
            "feet are not accepted");

        // Plain numbers.
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseUint("65536"), 65536, "uint");
        NS_TEST_ASSERT_MSG_EQ(Rejects([] { FabricUnits::ParseUint("1.0"); }), true, "no fraction");
        NS_TEST_ASSERT_MSG_EQ(Rejects([] { FabricUnits::ParseUint("-1"); }), true, "no sign");
        NS_TEST_ASSERT_MSG_EQ(Rejects([] { FabricUnits::ParseUint("99999999999999999999"); }),
                              true,
                              "more than 64 bits");
        NS_TEST_ASSERT_MSG_EQ(FabricUnits::ParseDouble("1e-12"), 1e-12, "double with exponent");
        NS_TEST_ASSERT_MSG_EQ(Rejects([] { FabricUnits::ParseDouble("nan"); }), true, "no nan");
        NS_TEST_ASSERT_MSG_EQ(Rejects([] { FabricUnits::ParseDouble("1e999"); }), true, "no inf");
    }
};

/**
 * \ingroup pod-tests
 * ScenarioError: the `FILE:LINE: FIELD: MESSAGE` format (specified in scenario-error.h).
 */
class PodScenarioErrorTestCase : public TestCase
{
  public:
    PodScenarioErrorTestCase()
        : TestCase("scenario error: FILE:LINE: FIELD: MESSAGE")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioError e("bad.yaml", 7, "pod.accelerators", "must be at least 1 (got 0)");
        NS_TEST_ASSERT_MSG_EQ(std::string(e.what()),
                              "bad.yaml:7: pod.accelerators: must be at least 1 (got 0)",
                              "the format of the brief's example");
        NS_TEST_ASSERT_MSG_EQ(e.GetFile(), "bad.yaml", "file");
        NS_TEST_ASSERT_MSG_EQ(e.GetLine(), 7, "line");
        NS_TEST_ASSERT_MSG_EQ(e.GetField(), "pod.accelerators", "field");
        NS_TEST_ASSERT_MSG_EQ(e.GetMessage(), "must be at least 1 (got 0)", "message");
        const ScenarioError s("--set", 0, "pod.accelerators", "must be at least 1 (got 0)");
        NS_TEST_ASSERT_MSG_EQ(std::string(s.what()),
                              "--set: pod.accelerators: must be at least 1 (got 0)",
                              "an override has no line");
        const ScenarioError f("x.yaml", 3, "", "YAML syntax error: x");
        NS_TEST_ASSERT_MSG_EQ(std::string(f.what()), "x.yaml:3: YAML syntax error: x", "no field");
    }
};

/**
 * \ingroup pod-tests
 * The schema: every default is valid for its own key, lookups, suggestions and the reference.
 */
class PodScenarioSchemaTestCase : public TestCase
{
  public:
    PodScenarioSchemaTestCase()
        : TestCase("scenario schema: defaults, lookups, Markdown reference")
    {
    }

  private:
    void DoRun() override
    {
        const std::string md = ScenarioSchema::MarkdownReference();
        for (const auto& key : ScenarioSchema::GetKeys())
        {
            // A default must pass its own key's checks (the schema is self-consistent).
            if (!key.defaultValue.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(
                    InvalidOf([&key] { ScenarioSchema::Parse(key, key.defaultValue); }),
                    "(no error)",
                    "default of " << key.path);
            }
            NS_TEST_ASSERT_MSG_EQ(key.help.empty(), false, "help of " << key.path);
            NS_TEST_ASSERT_MSG_EQ(Contains(md, "| `" + key.path + "` |"),
                                  true,
                                  "reference row of " << key.path);
            NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Find(key.path), &key, "find " << key.path);
        }
        NS_TEST_ASSERT_MSG_EQ((ScenarioSchema::Find("pod.link.rat") == nullptr),
                              true,
                              "no such key");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::SchemaPath("workloads[12].sender-list[3]"),
                              "workloads[].sender-list[]",
                              "schema form");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Suggest("pod.acelerators"),
                              "pod.accelerators",
                              "typo");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Suggest("workloads[].sise"),
                              "workloads[].size",
                              "typo");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Suggest("rate"), "pod.link.rate", "same last name");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Suggest("frobnicate"), "", "nothing close");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::EditDistance("kitten", "sitting"), 3, "textbook");
        // Markdown table cells (GitHub Flavored Markdown spec, tables and backslash escapes):
        // a pipe is escaped even in a code span; outside one, what would start emphasis, raw
        // HTML or an entity is escaped; `<=` and words with underscores stay as written.
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::MarkdownCell("a|b `x|y`"), "a\\|b `x\\|y`", "pipes");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::MarkdownCell("k*s, p<plane>, `p<plane>`"),
                              "k\\*s, p\\<plane>, `p<plane>`",
                              "emphasis and raw HTML");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::MarkdownCell("<= 64, tx_credit, _x_, &lt;"),
                              "<= 64, tx_credit, \\_x\\_, \\&lt;",
                              "comparisons, words, emphasis, entities");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::MarkdownCell("a ``b`` c ` d"),
                              "a ``b`` c \\` d",
                              "an unclosed backtick is literal");
        // Every row of the table has exactly the header's 5 cells: 6 unescaped pipes.
        std::istringstream rows(md);
        std::string row;
        while (std::getline(rows, row))
        {
            if (row.rfind("| `", 0) != 0)
            {
                continue;
            }
            std::size_t pipes = 0;
            for (std::size_t i = 0; i < row.size(); ++i)
            {
                pipes += (row[i] == '|' && (i == 0 || row[i - 1] != '\\')) ? 1 : 0;
            }
            NS_TEST_ASSERT_MSG_EQ(pipes, 6, "cells of the row " << row);
        }
        // The defaults the brief gives (SUE spec Appendix A.1 for the switch latency; RS(544,514)
        // for the codeword bits; IEEE 802.3 for the interframe bytes; Ethernet 14 + 4 header).
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Find("pod.switch.latency")->defaultValue,
                              "250ns",
                              "");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Find("pod.link.codeword-bits")->defaultValue,
                              "5140",
                              "");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Find("pod.link.interframe-bytes")->defaultValue,
                              "20",
                              "");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Find("pod.nic.header-bytes")->defaultValue, "18", "");
        // Range messages, as in the brief's example.
        const auto* acc = ScenarioSchema::Find("pod.accelerators");
        NS_TEST_ASSERT_MSG_EQ(InvalidOf([acc] { ScenarioSchema::Parse(*acc, "0"); }),
                              "must be at least 1 (got 0)",
                              "below the minimum");
        NS_TEST_ASSERT_MSG_EQ(InvalidOf([acc] { ScenarioSchema::Parse(*acc, "65537"); }),
                              "must be at most 65536 (got 65537)",
                              "above the maximum");
        const auto* mtu = ScenarioSchema::Find("pod.nic.mtu");
        NS_TEST_ASSERT_MSG_EQ(InvalidOf([mtu] { ScenarioSchema::Parse(*mtu, "128KiB"); }),
                              "must be at most 65536 bytes (got 128KiB)",
                              "size bound with its unit");
        const auto* plots = ScenarioSchema::Find("output.plots");
        NS_TEST_ASSERT_MSG_EQ(ScenarioSchema::Parse(*plots, "no").b, false, "yes/no booleans");
        NS_TEST_ASSERT_MSG_EQ(Rejects([plots] { ScenarioSchema::Parse(*plots, "maybe"); }),
                              true,
                              "not a boolean");
    }
};

/**
 * \ingroup pod-tests
 * A valid file loads with its values and the schema's defaults for everything else.
 */
class PodScenarioGoodTestCase : public ScenarioFileTestCase
{
  public:
    PodScenarioGoodTestCase()
        : ScenarioFileTestCase("scenario: a valid file and the defaults")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = DataFile("good.yaml");
        const Scenario sc = ScenarioLoader::Load(path, {});
        std::ifstream in(path);
        std::ostringstream text;
        text << in.rdbuf();
        NS_TEST_ASSERT_MSG_EQ(sc.sourceFile, path, "source file as given");
        NS_TEST_ASSERT_MSG_EQ(sc.text, text.str(), "the text verbatim");
        NS_TEST_ASSERT_MSG_EQ(sc.overrides.size(), 0, "no overrides");
        // Values written in good.yaml.
        NS_TEST_ASSERT_MSG_EQ(sc.name, "good-test", "name");
        NS_TEST_ASSERT_MSG_EQ(sc.seed, 7, "seed");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.accelerators, 64, "accelerators");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.sw.radix, 32, "radix (two tiers: 4 leaves <= 32)");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.sw.latency, PicoSeconds(13800), "13.8ns exactly");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.sw.cutThrough, false, "store-and-forward");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.rate, DataRate(400000000000ULL), "400Gb/s");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.cable, "single-mode", "cable");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.lengthM, 3.0, "300cm");
        NS_TEST_ASSERT_MSG_EQ_TOL(sc.pod.link.codewordErrorRate, 1e-6, 1e-20, "1e-6");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.nic.mtu, 16384, "16KiB");
        NS_TEST_ASSERT_MSG_EQ(sc.output.plots, false, "plots off");
        NS_TEST_ASSERT_MSG_EQ(sc.workloads.size(), 2, "two workloads");
        const auto& w0 = sc.workloads[0];
        NS_TEST_ASSERT_MSG_EQ(w0.kind, "incast", "kind");
        NS_TEST_ASSERT_MSG_EQ(w0.name, "incast-0", "default name <kind>-<index> (schema)");
        NS_TEST_ASSERT_MSG_EQ(w0.bytes, 1048576, "1MiB");
        NS_TEST_ASSERT_MSG_EQ(w0.senders, 4, "senders");
        NS_TEST_ASSERT_MSG_EQ(w0.receiver, 5, "receiver");
        NS_TEST_ASSERT_MSG_EQ(w0.senderList.size(), 4, "sender-list");
        NS_TEST_ASSERT_MSG_EQ(w0.senderList[3], 3, "sender-list[3]");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(w0.tclass), 2, "class");
        NS_TEST_ASSERT_MSG_EQ(w0.start, Time(0), "default start 0 (schema)");
        const auto& w1 = sc.workloads[1];
        NS_TEST_ASSERT_MSG_EQ(w1.kind, "permutation", "kind");
        NS_TEST_ASSERT_MSG_EQ(w1.name, "permutation-1", "default name");
        NS_TEST_ASSERT_MSG_EQ(w1.bytes, 4096, "plain bytes");
        NS_TEST_ASSERT_MSG_EQ(w1.start, PicoSeconds(1500000), "1.5us");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(w1.tclass), 0, "default class 0 (schema)");
        // Defaults, from the schema (which cites its sources).
        NS_TEST_ASSERT_MSG_EQ(sc.stopTime, Time(0), "stop 0: run to completion");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.fabric, "ethernet", "fabric");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.planes, 1, "planes");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.sw.bufferBytes, 64ULL << 20, "64MiB buffer");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.sw.classes, 8, "8 classes");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.delay, Time(0), "delay 0");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.fecLatency, Time(0), "FEC latency 0");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.codewordBits, 5140, "RS(544,514) message bits");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.ber, 0.0, "ber 0");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.interframeBytes,
                              20,
                              "IEEE 802.3 preamble+SFD 8 + IPG 12");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.nic.headerBytes, 18, "Ethernet header 14 + FCS 4");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.nic.planeSelection,
                              "spray",
                              "plane selection (schema default)");
        NS_TEST_ASSERT_MSG_EQ(sc.output.file, "results/good-test.h5", "results/<name>.h5");
        NS_TEST_ASSERT_MSG_EQ(sc.output.progress, true, "progress on");

        // The smallest scenario: every other value is a default (schema; SUE spec Appendix A.1
        // for the 250 ns switch), and the name is the file's stem.
        const Scenario m = ScenarioLoader::LoadString(SMALL, "some/dir/minimal.yaml", {});
        NS_TEST_ASSERT_MSG_EQ(m.name, "minimal", "file stem");
        NS_TEST_ASSERT_MSG_EQ(m.sourceFile, "some/dir/minimal.yaml", "display name");
        NS_TEST_ASSERT_MSG_EQ(m.seed, 1, "seed 1");
        NS_TEST_ASSERT_MSG_EQ(m.pod.sw.radix, 1024, "radix 1024");
        NS_TEST_ASSERT_MSG_EQ(m.pod.sw.latency, NanoSeconds(250), "SUE Appendix A.1: 250 ns");
        NS_TEST_ASSERT_MSG_EQ(m.pod.sw.cutThrough, true, "cut-through");
        NS_TEST_ASSERT_MSG_EQ(m.pod.link.rate.GetBitRate(), 800000000000ULL, "800Gbps");
        NS_TEST_ASSERT_MSG_EQ(m.pod.link.cable, "twinax", "twinax");
        NS_TEST_ASSERT_MSG_EQ(m.pod.link.lengthM, 3.0, "3m");
        NS_TEST_ASSERT_MSG_EQ(m.pod.nic.mtu, 4096, "mtu 4096");
        NS_TEST_ASSERT_MSG_EQ(m.output.file, "results/minimal.h5", "results/<name>.h5");
        NS_TEST_ASSERT_MSG_EQ(m.workloads[0].name, "all-to-all-0", "<kind>-<index>");
    }
};

/**
 * \ingroup pod-tests
 * One invalid file: loading it fails with the expected `file:line: field: message`.
 */
class PodScenarioBadFileTestCase : public ScenarioFileTestCase
{
  public:
    /**
     * \param file file name in test/data
     * \param line expected 1-based line
     * \param field expected field
     * \param message expected start of the message
     */
    PodScenarioBadFileTestCase(const std::string& file,
                               uint32_t line,
                               const std::string& field,
                               const std::string& message)
        : ScenarioFileTestCase("scenario: " + file + " fails at line " + std::to_string(line) +
                               ", " + (field.empty() ? "(no field)" : field)),
          m_file(file),
          m_line(line),
          m_field(field),
          m_message(message)
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = DataFile(m_file);
        bool thrown = false;
        try
        {
            ScenarioLoader::Load(path, {});
        }
        catch (const ScenarioError& e)
        {
            thrown = true;
            const std::string what = e.what();
            // The file as named by the caller (compared by name, the directory may vary).
            NS_TEST_ASSERT_MSG_EQ(e.GetFile(), path, "file as given");
            NS_TEST_ASSERT_MSG_EQ(std::filesystem::path(e.GetFile()).filename().string(),
                                  m_file,
                                  "file name");
            NS_TEST_ASSERT_MSG_EQ(e.GetLine(), m_line, what);
            NS_TEST_ASSERT_MSG_EQ(e.GetField(), m_field, what);
            const std::string prefix = path + ":" + std::to_string(m_line) + ": " +
                                       (m_field.empty() ? "" : m_field + ": ");
            NS_TEST_ASSERT_MSG_EQ(StartsWith(what, prefix),
                                  true,
                                  what << " starts with " << prefix);
            NS_TEST_ASSERT_MSG_EQ(StartsWith(e.GetMessage(), m_message),
                                  true,
                                  e.GetMessage() << " starts with " << m_message);
        }
        NS_TEST_ASSERT_MSG_EQ(thrown, true, m_file << " must not load");
    }

    std::string m_file;    //!< file in test/data
    uint32_t m_line;       //!< expected line
    std::string m_field;   //!< expected field
    std::string m_message; //!< expected start of the message
};

/**
 * \ingroup pod-tests
 * --set overrides: applied before validation; errors in them name `--set`.
 */
class PodScenarioOverrideTestCase : public ScenarioFileTestCase
{
  public:
    PodScenarioOverrideTestCase()
        : ScenarioFileTestCase("scenario: --set overrides")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = DataFile("good.yaml");
        const std::vector<std::string> good = {"pod.accelerators=128",
                                               "workloads[1].size=1MiB",
                                               "pod.link.rate=200Gbps",
                                               "workloads[0].sender-list[2]=9",
                                               "output.file=out/x.h5",
                                               "pod.nic.plane-selection=hash",
                                               "workloads[2]={kind: all-to-all, size: 8KiB}"};
        const Scenario sc = ScenarioLoader::Load(path, good);
        // The expected values are the overrides' own.
        NS_TEST_ASSERT_MSG_EQ(sc.pod.accelerators, 128, "pod.accelerators=128");
        NS_TEST_ASSERT_MSG_EQ(sc.workloads[1].bytes, 1048576, "workloads[1].size=1MiB");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.link.rate.GetBitRate(), 200000000000ULL, "200Gbps");
        NS_TEST_ASSERT_MSG_EQ(sc.workloads[0].senderList[2], 9, "a list element");
        NS_TEST_ASSERT_MSG_EQ(sc.output.file, "out/x.h5", "a new section key");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.nic.planeSelection, "hash", "an enum");
        NS_TEST_ASSERT_MSG_EQ(sc.workloads.size(), 3, "index one past the end adds a workload");
        NS_TEST_ASSERT_MSG_EQ(sc.workloads[2].name, "all-to-all-2", "its default name");
        NS_TEST_ASSERT_MSG_EQ(sc.workloads[2].bytes, 8192, "its size");
        NS_TEST_ASSERT_MSG_EQ(sc.overrides.size(), good.size(), "overrides recorded");
        NS_TEST_ASSERT_MSG_EQ(sc.pod.sw.radix, 32, "untouched values stay");
        // The overrides change the size and the radix: 1024 accelerators in two tiers of radix
        // 64 (32 leaves of 32).
        const Scenario big =
            ScenarioLoader::Load(path, {"pod.accelerators=1024", "pod.switch.radix=64"});
        NS_TEST_ASSERT_MSG_EQ(big.pod.sw.radix, 64, "radix 64");
        // Later overrides win.
        NS_TEST_ASSERT_MSG_EQ(LoadText(SMALL, {"pod.planes=2", "pod.planes=4"}).pod.planes,
                              4,
                              "last wins");

        // Errors in overrides name --set and no line.
        struct Bad
        {
            std::string arg;      //!< the override
            std::string expected; //!< expected start of what()
        };

        const std::vector<Bad> bad = {
            {"pod.acelerators=64",
             "--set: pod.acelerators: unknown key; did you mean 'pod.accelerators'?"},
            {"pod.accelerators=0", "--set: pod.accelerators: must be at least 1 (got 0)"},
            {"pod.link.rate=fast", "--set: pod.link.rate: expected a data rate"},
            {"workloads[0].size=abc", "--set: workloads[0].size: expected a size"},
            {"workloads[5].size=1MiB", "--set: workloads[5].size: index 5 is out of range"},
            {"workloads.size=1MiB", "--set: workloads.size: workloads is a list: give an index"},
            {"pod[0].accelerators=1", "--set: pod[0].accelerators: pod is not a list"},
            {"pod.accelerators.x=1", "--set: pod.accelerators.x: unknown key"},
            {"pod.accelerators", "--set: expected KEY=VALUE"},
            {"pod..accelerators=1", "--set: pod..accelerators: bad key"},
            {"workloads[1].senders=3", "--set: workloads[1].senders: only for incast workloads"},
            {"workloads[2].kind=incast", "--set: workloads[2].size: required key is missing"},
            {"pod.switch.radix=4", "--set: pod.switch.radix: radix 4 is too small"},
            {"pod.switch={radx: 4}", "--set: pod.switch.radx: unknown key; did you mean 'radix'?"},
        };
        for (const auto& b : bad)
        {
            const std::string what = ErrorOf([&] { ScenarioLoader::Load(path, {b.arg}); });
            NS_TEST_ASSERT_MSG_EQ(StartsWith(what, b.expected),
                                  true,
                                  what << " starts with " << b.expected);
        }
    }
};

/**
 * \ingroup pod-tests
 * Checks across fields and less common errors, on inline scenarios.
 */
class PodScenarioChecksTestCase : public TestCase
{
  public:
    PodScenarioChecksTestCase()
        : TestCase("scenario: checks across fields and other errors")
    {
    }

  private:
    /**
     * Check that a text fails with a message starting as expected.
     * \param text YAML
     * \param expected start of what()
     */
    void Fails(const std::string& text, const std::string& expected)
    {
        const std::string what = ErrorOf([&] { LoadText(text); });
        NS_TEST_EXPECT_MSG_EQ(StartsWith(what, expected),
                              true,
                              what << "\n  starts with " << expected);
    }

    /// Pod sizes against the switch radix: the one-, two- and three-tier limits.
    void CheckRadix()
    {
        // Radix (the brief's rule): one switch if r >= N, else ceil(N / (r/2)) leaves <= r for
        // two tiers, else ceil(leaves / (r/2)) blocks <= r for three.
        // 512 accelerators, radix 32: 16 per leaf, 32 leaves = 32 ports of a spine: fits.
        NS_TEST_ASSERT_MSG_EQ(
            LoadText(SMALL, {"pod.accelerators=512", "pod.switch.radix=32"}).pod.accelerators,
            512,
            "two tiers exactly full");
        // 513: 33 leaves > 32, so three tiers: 3 blocks of 16 leaves.
        NS_TEST_ASSERT_MSG_EQ(
            LoadText(SMALL, {"pod.accelerators=513", "pod.switch.radix=32"}).pod.accelerators,
            513,
            "three tiers");
        // Three tiers are full at 32 blocks of 16 leaves of 16: 8192 accelerators; 8193 fail.
        NS_TEST_ASSERT_MSG_EQ(
            LoadText(SMALL, {"pod.accelerators=8192", "pod.switch.radix=32"}).pod.accelerators,
            8192,
            "three tiers exactly full");
        Fails("pod:\n  accelerators: 8193\n  switch:\n    radix: 32\n"
              "workloads:\n  - {kind: all-to-all, size: 1}\n",
              "inline.yaml:4: pod.switch.radix: radix 32 is too small for 8193 accelerators: one "
              "switch needs radix >= 8193, two tiers (16 accelerators per leaf, 16 spines) need "
              "513 leaves, more than the 32 ports of a spine, and three tiers need 33 blocks of 16 "
              "leaves, more than the 32 ports of a core");
        // radix == N is one switch.
        NS_TEST_ASSERT_MSG_EQ(LoadText(SMALL, {"pod.switch.radix=8"}).pod.sw.radix,
                              8,
                              "one switch");
        // The default radix 1024 serves the largest pod: 512 accelerators per leaf,
        // ceil(65536 / 512) = 128 leaves <= 1024 (its all-to-all's 4.3 billion messages would
        // exceed any machine's memory: limits.memory lets the topology be checked alone).
        NS_TEST_ASSERT_MSG_EQ(
            LoadText(SMALL, {"pod.accelerators=65536", "limits.memory=1024TiB"}).pod.accelerators,
            65536,
            "max pod");
        // The smallest radix, 2: one accelerator per leaf, so 8 leaves > 2.
        Fails("pod:\n  accelerators: 8\n  switch:\n    radix: 2\nworkloads:\n  - {kind: "
              "permutation, size: 1}\n",
              "inline.yaml:4: pod.switch.radix: radix 2 is too small for 8 accelerators");
    }

    /// Incast workloads: receiver, senders and sender-list.
    void CheckIncast()
    {
        // Incast: receiver below N, sender-list exact, distinct, not the receiver (the brief).
        const std::string incast =
            "pod:\n  accelerators: 8\nworkloads:\n  - kind: incast\n    size: 1KiB\n";
        Fails(
            incast + "    senders: 2\n    receiver: 8\n",
            "inline.yaml:7: workloads[0].receiver: must be less than pod.accelerators = 8 (got 8)");
        Fails(incast + "    senders: 2\n    sender-list: [1, 2, 3]\n",
              "inline.yaml:7: workloads[0].sender-list: has 3 entries but senders is 2");
        Fails(incast + "    senders: 2\n    sender-list: [1, 0]\n",
              "inline.yaml:7: workloads[0].sender-list[1]: is the receiver (0)");
        Fails(incast + "    senders: 2\n    sender-list: [1, 8]\n",
              "inline.yaml:7: workloads[0].sender-list[1]: must be less than pod.accelerators = 8");
        Fails(
            incast + "    senders: 2\n    sender-list: [1, x]\n",
            "inline.yaml:7: workloads[0].sender-list[1]: expected a non-negative integer, got 'x'");
        Fails(incast, "inline.yaml:4: workloads[0].senders: required for incast workloads");
        Fails(incast + "    senders: 0\n",
              "inline.yaml:6: workloads[0].senders: must be at least 1 (got 0)");
        NS_TEST_ASSERT_MSG_EQ(LoadText(incast + "    senders: 7\n").workloads[0].senders,
                              7,
                              "N-1 senders");
    }

    /**
     * Workload keys across fields: keys of another kind, the permutation's minimum, the class
     * limit, distinct names.
     */
    void CheckWorkloadKeys()
    {
        // Keys of another kind (the brief).
        Fails(SMALL + "    receiver: 1\n",
              "inline.yaml:6: workloads[0].receiver: only for incast workloads (this one is "
              "all-to-all)");
        Fails(SMALL + "    sender-list: [1]\n",
              "inline.yaml:6: workloads[0].sender-list: only for incast");
        // A permutation needs two accelerators.
        Fails("pod: {accelerators: 1}\nworkloads:\n  - {kind: permutation, size: 1}\n",
              "inline.yaml:3: workloads[0].kind: a permutation needs at least 2 accelerators");
        // Class below pod.switch.classes.
        Fails(SMALL + "    class: 8\n",
              "inline.yaml:6: workloads[0].class: must be at most 7 (got 8)");
        // Distinct workload names.
        Fails(SMALL + "  - {kind: all-to-all, size: 1, name: all-to-all-0}\n",
              "inline.yaml:6: workloads[1].name: duplicate workload name 'all-to-all-0' (also "
              "workloads[0])");
    }

    /// The workload list and each workload's kind, including a Pyxis model file that is missing.
    void CheckWorkloadList()
    {
        // The workload list.
        Fails("pod: {accelerators: 8}\nworkloads: []\n",
              "inline.yaml:2: workloads: must have at least one workload");
        Fails("pod: {accelerators: 8}\n", "inline.yaml:1: workloads: required key is missing");
        Fails("pod: {accelerators: 8}\nworkloads:\n  kind: incast\n",
              "inline.yaml:2: workloads: expected a list, got a map");
        Fails("pod: {accelerators: 8}\nworkloads:\n  - incast\n",
              "inline.yaml:3: workloads[0]: expected a map of keys, got a single value");
        Fails("pod: {accelerators: 8}\nworkloads:\n  - {size: 1}\n",
              "inline.yaml:3: workloads[0].kind: required key is missing");
        Fails("pod: {accelerators: 8}\nworkloads:\n  - {kind: broadcast, size: 1}\n",
              "inline.yaml:3: workloads[0].kind: must be one of 'incast', 'permutation', "
              "'all-to-all', 'collective', 'dag', 'pyxis', 'llm-step', 'message-trace', "
              "'chakra' (got 'broadcast')");
        // A Pyxis model runs on any fabric (the pyxis workload kind); its model file must exist.
        Fails("pod: {accelerators: 8}\nworkloads:\n  - {kind: pyxis, model: m.yaml}\n",
              "inline.yaml:3: workloads[0].model: cannot read the model file m.yaml (no such "
              "file)");
    }

    /// Collectives, DAGs and the oversubscription limit; a misspelt workload key.
    void CheckCollectivesAndDags()
    {
        // Collectives and DAGs: a group naming a missing accelerator, an algorithm
        // that needs a power-of-two group, a DAG with a cycle.
        Fails("pod: {accelerators: 8}\nworkloads:\n  - kind: collective\n    collective: "
              "all-reduce\n    size: 1MiB\n    group: [0, 1, 9]\n",
              "inline.yaml:6: workloads[0].group[2]: accelerator 9 does not exist "
              "(pod.accelerators = 8)");
        Fails("pod: {accelerators: 6}\nworkloads:\n  - kind: collective\n    collective: "
              "all-reduce\n    algorithm: halving-doubling\n    size: 1MiB\n",
              "inline.yaml:5: workloads[0].algorithm: halving-doubling needs a power-of-two "
              "group (got 6 ranks); use rabenseifner, its non-power-of-two variant");
        Fails("pod: {accelerators: 8}\nworkloads:\n  - kind: collective\n    collective: "
              "all-to-all\n    algorithm: ring\n    size: 1KiB\n",
              "inline.yaml:5: workloads[0].algorithm: ring does not implement all-to-all");
        Fails("pod: {accelerators: 8}\nworkloads:\n  - kind: dag\n    nodes:\n"
              "      - {name: a, kind: compute, duration: 1us, deps: [c]}\n"
              "      - {name: b, kind: compute, duration: 1us, deps: [a]}\n"
              "      - {name: c, kind: compute, duration: 1us, deps: [b]}\n",
              "inline.yaml:6: workloads[0].nodes[1].deps[0]: dependency cycle: a <- c <- b <- a");
        Fails("pod: {accelerators: 8}\nworkloads:\n  - kind: dag\n    nodes:\n"
              "      - {name: a, kind: compute, duration: 1us, deps: [x]}\n",
              "inline.yaml:5: workloads[0].nodes[0].deps[0]: no node is named 'x'");
        Fails("pod: {accelerators: 8}\nworkloads:\n  - {kind: dag, size: 1}\n",
              "inline.yaml:3: workloads[0].size: only for incast, permutation, all-to-all, "
              "collective workloads (this one is dag)");
        Fails("pod: {accelerators: 64, switch: {radix: 8, oversubscription: 8}}\n"
              "workloads:\n  - {kind: all-to-all, size: 1}\n",
              "inline.yaml:1: pod.switch.oversubscription: radix 8 leaves no spine uplink");
        Fails("pod: {accelerators: 8}\nworkloads:\n  - {kind: incast, sise: 1}\n",
              "inline.yaml:3: workloads[0].sise: unknown key; did you mean 'size'?");
    }

    /**
     * Structure and values of the file: times, seed, names, duplicate and unknown keys, YAML
     * documents; an empty section is allowed; a file that does not exist.
     */
    void CheckStructureAndValues()
    {
        // Structure and values.
        Fails(SMALL + "stop:\n", "inline.yaml:6: stop: expected a time (e.g. 250ns), got no value");
        Fails(SMALL + "stop: 5\n", "inline.yaml:6: stop: a time needs a unit");
        Fails(SMALL + "seed: 0\n", "inline.yaml:6: seed: must be at least 1 (got 0)");
        Fails(SMALL + "seed: 4294967296\n", "inline.yaml:6: seed: must be at most 4294967295");
        Fails(SMALL + "name: ''\n", "inline.yaml:6: name: must not be empty");
        Fails(SMALL + "pod: {planes: 2}\n",
              "inline.yaml:6: pod: duplicate key (first given on line 1)");
        Fails(SMALL + "output: 3\n",
              "inline.yaml:6: output: expected a map of keys, got a single value");
        Fails(SMALL + "output: {plots: maybe}\n",
              "inline.yaml:6: output.plots: expected true or false");
        Fails(
            SMALL + "frobnicate: 1\n",
            "inline.yaml:6: frobnicate: unknown key (known keys here: name, seed, stop, scheduler, "
            "engine, limits, check, pod, workloads, faults, study, output)");
        Fails(SMALL + "pods: 1\n", "inline.yaml:6: pods: unknown key; did you mean 'pod'?");
        Fails(SMALL + "pod.link.ber: 2\n", "inline.yaml:6: pod.link.ber: unknown key");
        Fails("pod:\n  accelerators: 8\n  link: {ber: 2}\nworkloads:\n  - {kind: all-to-all, size: "
              "1}\n",
              "inline.yaml:3: pod.link.ber: must be at most 1 (got 2)");
        Fails("- 1\n- 2\n",
              "inline.yaml:1: expected a map of scenario keys at the top level, got a list");
        Fails("", "inline.yaml: the scenario is empty");
        Fails("# only a comment\n", "inline.yaml: the scenario is empty");
        Fails(SMALL + "---\nname: x\n", "inline.yaml:7: expected one YAML document, found 2");
        Fails("pod: {accelerators: 8\n", "inline.yaml:");
        // An empty section is allowed (all defaults).
        NS_TEST_ASSERT_MSG_EQ(LoadText(SMALL + "output:\n  # file: x.h5\n").output.plots,
                              true,
                              "empty section");
        // A file that does not exist.
        const std::string missing = ErrorOf([] { ScenarioLoader::Load("no/such/file.yaml", {}); });
        NS_TEST_ASSERT_MSG_EQ(StartsWith(missing, "no/such/file.yaml: cannot open scenario"),
                              true,
                              missing);
    }

    void DoRun() override
    {
        CheckRadix();
        CheckIncast();
        CheckWorkloadKeys();
        CheckWorkloadList();
        CheckCollectivesAndDags();
        CheckStructureAndValues();
    }
};

/**
 * \ingroup pod-tests
 * The pod-scenario suite.
 */
class PodScenarioTestSuite : public PicosecondTestSuite
{
  public:
    PodScenarioTestSuite()
        : PicosecondTestSuite("pod-scenario", UNIT)
    {
        SetDataDir(NS_TEST_SOURCEDIR);
        AddTestCase(new PodUnitsTestCase, TestCase::QUICK);
        AddTestCase(new PodScenarioErrorTestCase, TestCase::QUICK);
        AddTestCase(new PodScenarioSchemaTestCase, TestCase::QUICK);
        AddTestCase(new PodScenarioGoodTestCase, TestCase::QUICK);
        // Expected lines and fields: where each file puts the bad value (see the comment at the
        // top of each file); messages are the loader's and the schema's.
        const std::vector<std::tuple<std::string, uint32_t, std::string, std::string>> bad = {
            {"bad-unknown-key.yaml", 5, "pod.link.rat", "unknown key; did you mean 'rate'?"},
            {"bad-zero-accelerators.yaml", 3, "pod.accelerators", "must be at least 1 (got 0)"},
            {"bad-radix.yaml",
             6,
             "pod.switch.radix",
             "radix 8 is too small for 1024 accelerators: one switch needs radix >= 1024, two "
             "tiers (4 accelerators per leaf, 4 spines) need 256 leaves, more than the 8 ports of "
             "a spine, and three tiers need 64 blocks of 4 leaves, more than the 8 ports of a "
             "core"},
            {"bad-zero-rate.yaml", 5, "pod.link.rate", "must be greater than 0 (got 0Gbps)"},
            {"bad-missing-field.yaml", 7, "workloads[1].size", "required key is missing"},
            {"bad-type.yaml", 3, "pod.accelerators", "expected a non-negative integer, got a map"},
            {"bad-size.yaml", 6, "workloads[0].size", "expected a size in bytes"},
            {"bad-enum.yaml",
             5,
             "pod.switch.forwarding",
             "must be one of 'cut-through', 'store-and-forward' (got 'wormhole')"},
            {"bad-incast-senders.yaml",
             7,
             "workloads[0].senders",
             "must be at most pod.accelerators - 1 = 7 (got 8)"},
            {"bad-workload-key.yaml",
             10,
             "workloads[1].senders",
             "only for incast workloads (this one is all-to-all)"},
            {"bad-sender-list.yaml",
             12,
             "workloads[0].sender-list[2]",
             "duplicate sender 1 (also sender-list[0])"},
            {"bad-class.yaml",
             9,
             "workloads[0].class",
             "must be less than pod.switch.classes = 4 (got 4)"},
            {"bad-syntax.yaml", 9, "", "YAML syntax error: "},
            // pod.fabric: cell: the legal page sizes of the Pyxis spec 11.4.6, the ports of
            // a single-stage plane, the chips a two-stage plane reaches (8 first-stage switches
            // of 4 chips with 8-port switches, see the file).
            {"bad-cell-page-size.yaml",
             7,
             "pod.cell.page-size-words",
             "126 words is not a legal RDMA page size (Pyxis spec 10.7.2, 11.4.6): one of 37, 48, "
             "59, 70, 81, 92, 103, 114, 125"},
            {"bad-cell-single-stage.yaml",
             4,
             "pod.accelerators",
             "160 chip links reach each single-stage plane, more than the 144 ports of its cell "
             "switch"},
            {"bad-cell-two-stage.yaml",
             5,
             "pod.accelerators",
             "40 chips need 10 first-stage switches per plane (4 chips each), more than a "
             "second-stage switch of 8 ports reaches (at most 32 chips)"},
            {"bad-cell-occupancy-profile.yaml",
             10,
             "pod.cell.occupancy-profiles[1].xon",
             "xon (8) must be below xoff (8): generation stops at xoff and resumes at xon"},
            // Switch credits: the buffer must hold every credit the switch advertises.
            {"bad-cell-credits.yaml",
             8,
             "pod.cell.switch-buffer-cells",
             "2000 cells cannot hold the credits a cell switch advertises: 16 ports x 2 pools "
             "(data, control) x 63 credits = 2016 cells"},
        };
        for (const auto& [file, line, field, message] : bad)
        {
            AddTestCase(new PodScenarioBadFileTestCase(file, line, field, message),
                        TestCase::QUICK);
        }
        AddTestCase(new PodScenarioOverrideTestCase, TestCase::QUICK);
        AddTestCase(new PodScenarioChecksTestCase, TestCase::QUICK);
    }
};

/// The one instance of the suite.
static PodScenarioTestSuite g_podScenarioTestSuite;
