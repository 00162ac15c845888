/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the message-trace reader: the rows of a valid CSV trace as written, and each refused
// case's error (file, line and column). Expected values are the ones written in the traces below
// (src/workload/doc/workload.rst, Validation).

#include "ns3/fabric-input-error.h"
#include "ns3/message-trace.h"
#include "ns3/test.h"

#include <string>

using namespace ns3;

/**
 * \defgroup workload-tests Tests for workload
 * \ingroup workload
 * \ingroup tests
 */

namespace
{

/// Four ranks on a fabric that only writes (the Ethernet pod's).
MessageTrace::Limits
WriteOnly()
{
    MessageTrace::Limits l;
    l.ranks = 4;
    l.operations = 1;
    l.fabric = "ethernet";
    l.readFabrics = "sue, ualink";
    l.atomicFabrics = "ualink";
    return l;
}

/// The documented trace: two messages at fixed times, one after both (workload.rst).
const std::string VALID = "id,time,after,delay,src,dst,bytes,tag\n" // 1
                          "a,0,,,0,1,64KiB,7\n"                     // 2
                          "b,1us,,,2,3,65536,\n"                    // 3
                          "# a comment\n"                           // 4
                          "c,,a;b,100ns,1,2,64KiB,9\n";             // 5

/**
 * \param text a trace
 * \param limits its checks
 * \return the error's text ("" if it loads)
 */
std::string
ErrorOf(const std::string& text, const MessageTrace::Limits& limits = WriteOnly())
{
    try
    {
        MessageTrace::ParseCsv("t.csv", text, limits);
    }
    catch (const FabricInputError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

/**
 * \ingroup workload-tests
 * A valid trace's rows as written.
 */
class MessageTraceRowsTestCase : public TestCase
{
  public:
    MessageTraceRowsTestCase()
        : TestCase("A CSV trace's rows: times in picoseconds, sizes in bytes, after references")
    {
    }

  private:
    void DoRun() override
    {
        MessageTrace t = MessageTrace::ParseCsv("t.csv", VALID, WriteOnly());
        const auto& r = t.GetRows();
        NS_TEST_ASSERT_MSG_EQ(r.size(), 3, "three rows (the comment is skipped)");
        NS_TEST_ASSERT_MSG_EQ(r[0].timePs, 0, "a at 0");
        NS_TEST_ASSERT_MSG_EQ(r[1].timePs, 1000000, "b at 1 us = 10^6 ps");
        NS_TEST_ASSERT_MSG_EQ(r[2].timePs, -1, "c after others");
        NS_TEST_ASSERT_MSG_EQ(r[2].delayPs, 100000, "100 ns = 10^5 ps");
        NS_TEST_ASSERT_MSG_EQ(r[0].bytes, 65536, "64KiB = 65536");
        NS_TEST_ASSERT_MSG_EQ(r[1].bytes, 65536, "plain bytes");
        NS_TEST_ASSERT_MSG_EQ(r[0].tag, 7, "tag");
        NS_TEST_ASSERT_MSG_EQ(r[2].line, 5, "its line");
        NS_TEST_ASSERT_MSG_EQ(t.AfterBegin(2), 0, "c's references first");
        NS_TEST_ASSERT_MSG_EQ(r[2].afterEnd, 2, "two references");
        NS_TEST_ASSERT_MSG_EQ(t.GetAfter()[0], 0, "a");
        NS_TEST_ASSERT_MSG_EQ(t.GetAfter()[1], 1, "b");
        NS_TEST_ASSERT_MSG_EQ(t.GetTotalBytes(), 3 * 65536, "bytes of the three rows");
        // A plain number is picoseconds: 1500 is 1.5 ns; time-scale 2 doubles times and delays.
        MessageTrace u =
            MessageTrace::ParseCsv("t.csv", "time,src,dst,bytes\n1500,0,3,1\n", WriteOnly());
        NS_TEST_ASSERT_MSG_EQ(u.GetRows()[0].timePs, 1500, "plain picoseconds");
        // A UTF-8 byte order mark before the header is skipped; CRLF line ends are trimmed.
        MessageTrace bom = MessageTrace::ParseCsv("t.csv",
                                                  "\xEF\xBB\xBFtime,src,dst,bytes\r\n0,0,3,1\r\n",
                                                  WriteOnly());
        NS_TEST_ASSERT_MSG_EQ(bom.GetRows().size(), 1, "one row");
        t.Scale(2);
        NS_TEST_ASSERT_MSG_EQ(t.GetRows()[1].timePs, 2000000, "time x 2");
        NS_TEST_ASSERT_MSG_EQ(t.GetRows()[2].delayPs, 200000, "delay x 2");
        // A read on a fabric with reads.
        MessageTrace::Limits reads = WriteOnly();
        reads.operations = 3;
        MessageTrace v =
            MessageTrace::ParseCsv("t.csv", "time,src,dst,bytes,operation\n0,0,1,1,read\n", reads);
        NS_TEST_ASSERT_MSG_EQ(unsigned(v.GetRows()[0].op), 2, "read");
    }
};

/**
 * \ingroup workload-tests
 * Each refused case names the file, the line and the column.
 */
class MessageTraceErrorsTestCase : public TestCase
{
  public:
    MessageTraceErrorsTestCase()
        : TestCase("Refused traces: FILE:LINE: COLUMN: MESSAGE for each case")
    {
    }

  private:
    /// \param text a trace \param expected its error's text
    void Refused(const std::string& text, const std::string& expected)
    {
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(text), expected, text);
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(ErrorOf(VALID), "", "the valid trace loads");
        Refused("time,src,dst,bytes,size\n0,0,1,1,1\n",
                "t.csv:1: size: unknown column (the columns: id, time, after, delay, src, dst, "
                "bytes, tag, operation)");
        Refused("time,src,bytes\n0,0,1\n", "t.csv:1: dst: missing required column");
        Refused("src,dst,bytes\n0,1,1\n",
                "t.csv:1: time: missing required column: a trace has a time or an after column");
        Refused("time,src,dst,bytes\n0,0,1\n", "t.csv:2: has 3 fields, the header 4");
        Refused("time,src,dst,bytes\n0,x,1,1\n",
                "t.csv:2: src: not a rank (an integer from 0): 'x'");
        Refused("time,src,dst,bytes\n0,0,4,1\n",
                "t.csv:2: dst: rank 4 is outside the pod (ranks 0 to 3)");
        Refused("time,src,dst,bytes\n0,2,2,1\n",
                "t.csv:2: dst: equals src (2): a message goes to another rank");
        Refused("time,src,dst,bytes\n0,0,1,0\n",
                "t.csv:2: bytes: a message carries at least 1 byte");
        Refused("time,src,dst,bytes\n5us,0,1,1\n3 parsecs,0,1,1\n",
                "t.csv:3: time: not a time: '3 parsecs' (a number with a unit, e.g. 1.5us, or "
                "plain picoseconds; unknown time unit 'parsecs' in '3 parsecs' (use s, ms, us, ns, "
                "ps))");
        Refused("id,time,after,src,dst,bytes\na,0,,0,1,1\nb,1us,a,1,2,1\n",
                "t.csv:3: after: give either time or after, not both");
        Refused("id,time,after,src,dst,bytes\na,,,0,1,1\n",
                "t.csv:2: time: missing value: a row has a time or an after");
        Refused("id,time,after,src,dst,bytes\na,0,,0,1,1\nb,,z,1,2,1\n",
                "t.csv:3: after: unknown id 'z'");
        Refused("id,after,src,dst,bytes\na,c,0,1,1\nb,a,1,2,1\nc,b,2,3,1\n",
                "t.csv:2: after: a cycle of after references: 'a' after 'c' after 'b' after 'a'");
        Refused("id,after,src,dst,bytes\na,a,0,1,1\n",
                "t.csv:2: after: a cycle of after references: 'a' after 'a'");
        Refused("id,time,src,dst,bytes\na,0,0,1,1\na,0,1,2,1\n",
                "t.csv:3: id: duplicate id 'a' (also line 2)");
        Refused("time,delay,src,dst,bytes\n0,5ns,0,1,1\n",
                "t.csv:2: delay: a delay is for a row issued after others (give after, or add "
                "the delay to the time)");
        Refused("time,src,dst,bytes,operation\n0,0,1,1,read\n",
                "t.csv:2: operation: reads need a fabric with a read operation (sue, ualink); "
                "the ethernet fabric only writes");
        Refused("time,src,dst,bytes,operation\n0,0,1,1,atomic\n",
                "t.csv:2: operation: atomics need a fabric with atomic operations (ualink); the "
                "ethernet fabric has none");
        Refused("time,src,dst,bytes,operation\n0,0,1,1,swap\n",
                "t.csv:2: operation: unknown operation 'swap' (write, read or atomic)");
        // The fabric's own limit on an operation's size (FabricKind::CheckOperation).
        MessageTrace::Limits atomics = WriteOnly();
        atomics.operations = 7;
        atomics.checkOperation = [](uint32_t, uint64_t bytes) {
            return bytes > 16 ? std::string("an atomic has 1 to 16 operand bytes") : "";
        };
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("time,src,dst,bytes,operation\n0,0,1,32,atomic\n", atomics),
                              "t.csv:2: bytes: an atomic has 1 to 16 operand bytes",
                              "CheckOperation");
    }
};

/**
 * \ingroup workload-tests
 * The message-trace reader's test suite.
 */
class MessageTraceTestSuite : public TestSuite
{
  public:
    MessageTraceTestSuite()
        : TestSuite("workload-message-trace", UNIT)
    {
        AddTestCase(new MessageTraceRowsTestCase, TestCase::QUICK);
        AddTestCase(new MessageTraceErrorsTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static MessageTraceTestSuite g_messageTraceTestSuite;
