/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/picosecond-test-suite.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <functional>

/**
 * \file
 * \ingroup pod-tests
 * The pod-study suite: study files (a study section: fabrics x workloads, quick overrides),
 * their cases and their errors (src/pod/doc/pod.rst, Studies).
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
StudyErrorOf(const std::function<void()>& f)
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

/// A study of two fabrics and three workloads; line numbers are used by the error tests.
const char* STUDY = R"(name: two-fabrics
pod:
  accelerators: 32
  planes: 2
  link: {rate: 400Gbps, cable: twinax, length: 2m}
study:
  fabrics:
    - name: eth
      pod: {fabric: ethernet, planes: 4}
    - name: sue
      pod:
        fabric: sue
        link: {rate: 800Gbps}
        flow-control: {kind: pfc}
  workloads:
    - {name: incast, kind: incast, senders: 16, receiver: 3, size: 64KiB}
    - {name: a2a, kind: all-to-all, size: 1KiB}
    - {name: ar, kind: collective, collective: all-reduce, algorithm: ring, size: 1MiB}
  quick:
    - pod.accelerators=8
    - study.workloads[0].senders=7
)";

/**
 * A test case that writes a study file into a temporary directory.
 */
class StudyFileTestCase : public TestCase
{
  public:
    /// \param name test case name
    explicit StudyFileTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Write a file.
     * \param name its name in the temporary directory
     * \param text its contents
     * \return its path
     */
    std::string Write(const std::string& name, const std::string& text)
    {
        const auto dir = std::filesystem::path(CreateTempDirFilename("pod-study"));
        std::filesystem::create_directories(dir);
        const auto path = dir / name;
        std::ofstream(path) << text;
        return path.string();
    }
};

/**
 * The cases of a study: every fabric x every workload in file order; a case's pod is the
 * top-level pod with the fabric's pod merged over it key by key; its only workload is the
 * study's; study.quick applies before --set.
 */
class PodStudyCasesTestCase : public StudyFileTestCase
{
  public:
    PodStudyCasesTestCase()
        : StudyFileTestCase("study cases, pod merge, quick overrides")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = Write("study.yaml", STUDY);
        const auto cases = ScenarioLoader::ListCases(path, {}, false);
        // 2 fabrics x 3 workloads, fabric by fabric.
        NS_TEST_ASSERT_MSG_EQ(cases.size(), 6u, "2 x 3 cases");
        NS_TEST_ASSERT_MSG_EQ(cases[0].fabric + "/" + cases[0].workload, "eth/incast", "first");
        NS_TEST_ASSERT_MSG_EQ(cases[2].fabric + "/" + cases[2].workload, "eth/ar", "third");
        NS_TEST_ASSERT_MSG_EQ(cases[5].fabric + "/" + cases[5].workload, "sue/ar", "last");

        // The merge: the fabric's keys win (planes 4, the SUE link rate), the others stay
        // (accelerators 32, the cable); a map merges key by key (link.cable kept under sue).
        const Scenario eth = ScenarioLoader::LoadCase(path, {}, false, "eth/a2a");
        NS_TEST_ASSERT_MSG_EQ(eth.studyCase, "eth/a2a", "case name");
        NS_TEST_ASSERT_MSG_EQ(eth.pod.fabric, "ethernet", "fabric");
        NS_TEST_ASSERT_MSG_EQ(eth.pod.planes, 4u, "the fabric's planes win");
        NS_TEST_ASSERT_MSG_EQ(eth.pod.accelerators, 32u, "shared accelerators");
        NS_TEST_ASSERT_MSG_EQ(eth.pod.link.rate.GetBitRate(), 400000000000ULL, "shared rate");
        NS_TEST_ASSERT_MSG_EQ(eth.workloads.size(), 1u, "one workload per case");
        NS_TEST_ASSERT_MSG_EQ(eth.workloads[0].name, "a2a", "the case's workload");
        NS_TEST_ASSERT_MSG_EQ(eth.name, "two-fabrics", "the study's name");
        const Scenario sue = ScenarioLoader::LoadCase(path, {}, false, "sue/incast");
        NS_TEST_ASSERT_MSG_EQ(sue.pod.planes, 2u, "planes from the top-level pod");
        NS_TEST_ASSERT_MSG_EQ(sue.pod.link.rate.GetBitRate(), 800000000000ULL, "SUE's rate");
        NS_TEST_ASSERT_MSG_EQ(sue.pod.link.cable, "twinax", "cable kept by the map merge");
        NS_TEST_ASSERT_MSG_EQ(sue.pod.link.lengthM, 2.0, "length kept by the map merge");
        NS_TEST_ASSERT_MSG_EQ(sue.pod.fc.kind, "pfc", "the fabric's flow control");
        NS_TEST_ASSERT_MSG_EQ(sue.workloads[0].senders, 16u, "incast senders");

        // quick: 8 accelerators and 7 senders; --set is applied after it and wins.
        const Scenario q = ScenarioLoader::LoadCase(path, {}, true, "sue/incast");
        NS_TEST_ASSERT_MSG_EQ(q.pod.accelerators, 8u, "quick accelerators");
        NS_TEST_ASSERT_MSG_EQ(q.workloads[0].senders, 7u, "quick senders");
        const Scenario qs =
            ScenarioLoader::LoadCase(path, {"pod.accelerators=16"}, true, "sue/incast");
        NS_TEST_ASSERT_MSG_EQ(qs.pod.accelerators, 16u, "--set after quick");
        // A --set into a fabric's pod and into a study workload (the keys of pod and
        // workloads[] below study.fabrics[].pod and study.workloads[]).
        const Scenario s2 = ScenarioLoader::LoadCase(
            path,
            {"study.fabrics[1].pod.flow-control.kind=cbfc", "study.workloads[1].size=2KiB"},
            false,
            "sue/a2a");
        NS_TEST_ASSERT_MSG_EQ(s2.pod.fc.kind, "cbfc", "--set into a fabric's pod");
        NS_TEST_ASSERT_MSG_EQ(s2.workloads[0].bytes, 2048u, "--set into a study workload");
    }
};

/**
 * Errors of study files: each names the file, the line and the field, and for an error inside
 * a case, the case.
 */
class PodStudyErrorsTestCase : public StudyFileTestCase
{
  public:
    PodStudyErrorsTestCase()
        : StudyFileTestCase("study errors name file, line, field and case")
    {
    }

  private:
    /**
     * Replace the first occurrence of a text in STUDY.
     * \param from the text
     * \param to its replacement
     * \return the edited study
     */
    static std::string Edit(const std::string& from, const std::string& to)
    {
        std::string s = STUDY;
        const auto at = s.find(from);
        NS_ABORT_MSG_IF(at == std::string::npos, "no '" << from << "' in the study");
        return s.replace(at, from.size(), to);
    }

    void DoRun() override
    {
        const std::string good = Write("study.yaml", STUDY);
        // Loaded as a plain scenario: it says that it is a study and how to run it.
        const std::string plain = StudyErrorOf([&] { ScenarioLoader::Load(good, {}); });
        NS_TEST_ASSERT_MSG_NE(plain.find("study.yaml:6: study: this file is a study"),
                              std::string::npos,
                              plain);
        // An unknown case.
        const std::string unknown =
            StudyErrorOf([&] { ScenarioLoader::LoadCase(good, {}, false, "eth/nope"); });
        NS_TEST_ASSERT_MSG_NE(unknown.find("--case: no workload named 'nope'"),
                              std::string::npos,
                              unknown);
        // A bad key in a fabric's pod: the line of the key, the case it broke.
        const std::string badKey =
            Write("bad-key.yaml", Edit("flow-control: {kind: pfc}", "flow-contrl: {kind: pfc}"));
        const std::string e1 = StudyErrorOf([&] { ScenarioLoader::ListCases(badKey, {}, false); });
        NS_TEST_ASSERT_MSG_NE(e1.find("bad-key.yaml:14: pod.flow-contrl: unknown key"),
                              std::string::npos,
                              e1);
        NS_TEST_ASSERT_MSG_NE(e1.find("(in study case sue/incast)"), std::string::npos, e1);
        // A value out of range in one workload: found by ListCases before anything runs.
        const std::string badSize = Write("bad-size.yaml", Edit("size: 1KiB", "size: 0"));
        const std::string e2 = StudyErrorOf([&] { ScenarioLoader::ListCases(badSize, {}, false); });
        NS_TEST_ASSERT_MSG_NE(e2.find("bad-size.yaml:17: workloads[0].size"),
                              std::string::npos,
                              e2);
        // Two workloads with one name.
        const std::string dup = Write("dup.yaml", Edit("name: a2a", "name: incast"));
        const std::string e3 = StudyErrorOf([&] { ScenarioLoader::ListCases(dup, {}, false); });
        NS_TEST_ASSERT_MSG_NE(e3.find("dup.yaml:17: study.workloads[1].name: 'incast' is used "
                                      "twice"),
                              std::string::npos,
                              e3);
        // A fabric without a name.
        const std::string noName = Write("no-name.yaml", Edit("- name: eth\n      pod:", "- pod:"));
        const std::string e4 = StudyErrorOf([&] { ScenarioLoader::ListCases(noName, {}, false); });
        NS_TEST_ASSERT_MSG_NE(e4.find("study.fabrics[0].name: required key is missing"),
                              std::string::npos,
                              e4);
        // Top-level workloads beside a study.
        const std::string both =
            Write("both.yaml",
                  std::string(STUDY) + "workloads:\n  - {kind: all-to-all, size: 1}\n");
        const std::string e5 = StudyErrorOf([&] { ScenarioLoader::ListCases(both, {}, false); });
        NS_TEST_ASSERT_MSG_NE(e5.find("both.yaml:22: workloads: a study gives its workloads in "
                                      "study.workloads"),
                              std::string::npos,
                              e5);
        // An unknown key of the study section.
        const std::string stray = Write("stray.yaml", Edit("  quick:", "  quik:"));
        const std::string e6 = StudyErrorOf([&] { ScenarioLoader::ListCases(stray, {}, false); });
        NS_TEST_ASSERT_MSG_NE(e6.find("stray.yaml:19: study.quik: unknown key; did you mean "
                                      "'quick'?"),
                              std::string::npos,
                              e6);
        // A bad quick override names its own line.
        const std::string badQuick =
            Write("bad-quick.yaml", Edit("pod.accelerators=8", "pod.acelerators=8"));
        const std::string e7 = StudyErrorOf([&] { ScenarioLoader::ListCases(badQuick, {}, true); });
        NS_TEST_ASSERT_MSG_NE(e7.find("bad-quick.yaml:20: pod.acelerators: unknown key"),
                              std::string::npos,
                              e7);
        // A quick value that breaks a case: the quick line and the case.
        const std::string tooFew =
            Write("too-few.yaml",
                  Edit("study.workloads[0].senders=7", "study.workloads[0].senders=8"));
        const std::string e8 = StudyErrorOf([&] { ScenarioLoader::ListCases(tooFew, {}, true); });
        NS_TEST_ASSERT_MSG_NE(e8.find("too-few.yaml:21: workloads[0].senders: must be at most"),
                              std::string::npos,
                              e8);
        // --quick and --case on a file without a study.
        const std::string notStudy =
            Write("plain.yaml",
                  "pod: {accelerators: 4}\nworkloads:\n  - {kind: all-to-all, size: 1KiB}\n");
        const std::string e9 =
            StudyErrorOf([&] { ScenarioLoader::LoadCase(notStudy, {}, false, "a/b"); });
        NS_TEST_ASSERT_MSG_NE(e9.find("--case: not a study"), std::string::npos, e9);
        const std::string e10 =
            StudyErrorOf([&] { ScenarioLoader::ListCases(notStudy, {}, true); });
        NS_TEST_ASSERT_MSG_NE(e10.find("--quick: only a study"), std::string::npos, e10);
        NS_TEST_ASSERT_MSG_EQ(ScenarioLoader::ListCases(notStudy, {}, false).size(),
                              0u,
                              "a plain scenario has no cases");
    }
};

} // namespace

/**
 * \ingroup pod-tests
 * The pod-study test suite.
 */
class PodStudyTestSuite : public PicosecondTestSuite
{
  public:
    PodStudyTestSuite()
        : PicosecondTestSuite("pod-study", UNIT)
    {
        AddTestCase(new PodStudyCasesTestCase, TestCase::QUICK);
        AddTestCase(new PodStudyErrorsTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static PodStudyTestSuite g_podStudyTestSuite;
