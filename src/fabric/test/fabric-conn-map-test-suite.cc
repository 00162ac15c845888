/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of FabricFlatIndex and FabricConnMap, the dense per-peer storage of FabricGoBackN and
// SuePacker. The expected values come from a reference (std::map holds the same keys after the
// same operations) and from the containers' contract (records are numbered in the order they
// were made and never move).

#include "ns3/fabric-conn-map.h"
#include "ns3/fabric-flat-index.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/test.h"

#include <cstdint>
#include <map>
#include <vector>

using namespace ns3;

/**
 * \ingroup fabric-tests
 * \brief FabricFlatIndex agrees with std::map over a long mix of inserts, erases and finds.
 *
 * Keys are drawn from a small range (many collisions and long probe runs, erases in the middle
 * of runs, runs that wrap around the array end) and, for the 64-bit index, spread over the top
 * bits too. After every operation the index's size equals the map's; every key of the range is
 * looked up at checkpoints.
 */
class FabricFlatIndexTestCase : public TestCase
{
  public:
    FabricFlatIndexTestCase()
        : TestCase("FabricFlatIndex agrees with std::map over 20000 mixed operations")
    {
    }

  private:
    /**
     * \brief Run the mix on one key type.
     * \param shift key = draw << shift (0: dense ids; 40: ids in the top bits)
     */
    template <typename Key>
    void Mix(unsigned shift)
    {
        FabricFlatIndex<Key> index;
        std::map<Key, uint32_t> ref;
        uint64_t x = 12345;
        for (uint32_t op = 0; op < 20000; ++op)
        {
            x = x * 6364136223846793005ull + 1442695040888963407ull; // a fixed LCG
            const Key key = static_cast<Key>(((x >> 33) % 300) << shift);
            const bool erase = ((x >> 20) & 3) == 0;
            auto it = ref.find(key);
            if (erase)
            {
                NS_TEST_ASSERT_MSG_EQ(index.Erase(key), (it != ref.end()), "erase result");
                if (it != ref.end())
                {
                    ref.erase(it);
                }
            }
            else if (it == ref.end())
            {
                index.Insert(key, op);
                ref[key] = op;
            }
            NS_TEST_ASSERT_MSG_EQ(index.Size(), ref.size(), "size after operation " << op);
            if (op % 1000 == 999)
            {
                for (uint64_t k = 0; k < 300; ++k)
                {
                    const Key probe = static_cast<Key>(k << shift);
                    auto r = ref.find(probe);
                    const uint32_t expected =
                        r == ref.end() ? FabricFlatIndex<Key>::NONE : r->second;
                    NS_TEST_ASSERT_MSG_EQ(index.Find(probe),
                                          expected,
                                          "slot of key " << k << " after operation " << op);
                }
            }
        }
        index.Clear();
        NS_TEST_ASSERT_MSG_EQ(index.Size(), 0u, "empty after Clear");
        NS_TEST_ASSERT_MSG_EQ(index.Find(0), FabricFlatIndex<Key>::NONE, "nothing after Clear");
    }

    void DoRun() override
    {
        Mix<uint32_t>(0);
        Mix<uint64_t>(0);
        Mix<uint64_t>(40);
    }
};

/**
 * \ingroup fabric-tests
 * \brief FabricConnMap: records default-constructed on first use, numbered in creation order,
 * and never moved by later insertions (a reference taken first is still the record after 1000
 * more).
 */
class FabricConnMapTestCase : public TestCase
{
  public:
    FabricConnMapTestCase()
        : TestCase("FabricConnMap keeps records in place and in creation order")
    {
    }

  private:
    /// A record.
    struct Rec
    {
        uint64_t value{7}; //!< default 7, to see default construction
    };

    void DoRun() override
    {
        FabricConnMap<Rec> m;
        NS_TEST_ASSERT_MSG_EQ((m.Find(5) == nullptr), true, "absent before use");
        Rec& first = m[1000003];
        NS_TEST_ASSERT_MSG_EQ(first.value, 7u, "default-constructed");
        first.value = 42;
        for (uint32_t i = 0; i < 1000; ++i)
        {
            m[i * 7919].value = i; // keys in a scattered order
        }
        NS_TEST_ASSERT_MSG_EQ(m.Size(), 1001u, "one record per key");
        NS_TEST_ASSERT_MSG_EQ((&m[1000003] == &first), true, "the first record did not move");
        NS_TEST_ASSERT_MSG_EQ(first.value, 42u, "and kept its value");
        NS_TEST_ASSERT_MSG_EQ(m.KeyAt(0), 1000003u, "slot 0 is the first key made");
        for (uint32_t i = 0; i < 1000; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m.KeyAt(i + 1), i * 7919, "creation order");
            NS_TEST_ASSERT_MSG_EQ(m.At(i + 1).value, i, "record of slot " << i + 1);
            NS_TEST_ASSERT_MSG_EQ((m.Find(i * 7919) == &m.At(i + 1)), true, "Find is the slot");
        }
        m.Clear();
        NS_TEST_ASSERT_MSG_EQ(m.Size(), 0u, "empty after Clear");
        NS_TEST_ASSERT_MSG_EQ((m.Find(0) == nullptr), true, "nothing after Clear");
    }
};

/**
 * \ingroup fabric-tests
 * \brief The dense per-peer storage test suite.
 */
class FabricConnMapTestSuite : public PicosecondTestSuite
{
  public:
    FabricConnMapTestSuite()
        : PicosecondTestSuite("fabric-conn-map", UNIT)
    {
        AddTestCase(new FabricFlatIndexTestCase, TestCase::QUICK);
        AddTestCase(new FabricConnMapTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static FabricConnMapTestSuite g_fabricConnMapTestSuite;
