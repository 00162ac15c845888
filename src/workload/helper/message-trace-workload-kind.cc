/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-trace-workload-kind.h"

#include "ns3/fabric-config-reader.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-kind-registry.h"
#include "ns3/fabric-kind.h"
#include "ns3/message-trace-runner.h"

#include <filesystem>
#include <hdf5.h>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Write a 1-D column.
 * \param group where \param name its name \param type its HDF5 type \param data the values
 * \param n how many \return false on an HDF5 error
 */
bool
WriteColumn(hid_t group, const char* name, hid_t type, const void* data, hsize_t n)
{
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t ds = H5Dcreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    bool ok = ds >= 0 && H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0;
    if (ds >= 0)
    {
        H5Dclose(ds);
    }
    H5Sclose(space);
    return ok;
}

/// A running message trace, as the pod's runner follows it.
class MessageTraceWorkloadRun : public WorkloadRun
{
  public:
    /// \param runner the started runner \param name the workload's name
    MessageTraceWorkloadRun(std::unique_ptr<MessageTraceRunner> runner, std::string name)
        : m_runner(std::move(runner)),
          m_name(std::move(name))
    {
    }

    double GetProgress() const override
    {
        const auto n = m_runner->GetTrace().GetRows().size();
        return n == 0 ? 1.0 : static_cast<double>(m_runner->GetCompleted()) / n;
    }

    std::string GetProgressWhat() const override
    {
        return "of trace messages completed";
    }

    bool TablesMessage(uint64_t cookie, uint32_t& src, uint32_t& dst) const override
    {
        if (!m_runner->Owns(cookie))
        {
            return false;
        }
        m_runner->GetEnds(cookie, src, dst);
        return true;
    }

    void Finish() override
    {
        for (int64_t t : m_runner->GetCompletePs())
        {
            m_endPs = std::max(m_endPs, t);
        }
    }

    Time GetEnd() const override
    {
        return PicoSeconds(m_endPs);
    }

    std::string GetSummaryLine() const override
    {
        const auto n = m_runner->GetTrace().GetRows().size();
        std::ostringstream os;
        os << "message-trace " << m_name << ": " << n << " messages, " << m_runner->GetIssued()
           << " issued, " << m_runner->GetCompleted() << " completed, end " << std::fixed
           << std::setprecision(3) << static_cast<double>(m_endPs) / 1e3 << " ns"
           << (m_runner->GetCompleted() == n ? " (completed)" : " (NOT completed)");
        return os.str();
    }

    bool WriteTables(const std::string& file) const override
    {
        const auto& rows = m_runner->GetTrace().GetRows();
        const hsize_t n = rows.size();
        std::vector<uint32_t> line(n);
        std::vector<uint32_t> tag(n);
        std::vector<uint32_t> src(n);
        std::vector<uint32_t> dst(n);
        for (hsize_t i = 0; i < n; ++i)
        {
            line[i] = rows[i].line;
            tag[i] = rows[i].tag;
            src[i] = m_runner->GetPlacement()[rows[i].src];
            dst[i] = m_runner->GetPlacement()[rows[i].dst];
        }
        hid_t h5 = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        if (h5 < 0)
        {
            return false;
        }
        hid_t top = H5Lexists(h5, "message_trace", H5P_DEFAULT) > 0
                        ? H5Gopen2(h5, "message_trace", H5P_DEFAULT)
                        : H5Gcreate2(h5, "message_trace", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        hid_t g =
            top >= 0 ? H5Gcreate2(top, m_name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
        bool ok =
            g >= 0 && WriteColumn(g, "line", H5T_NATIVE_UINT32, line.data(), n) &&
            WriteColumn(g, "tag", H5T_NATIVE_UINT32, tag.data(), n) &&
            WriteColumn(g, "src", H5T_NATIVE_UINT32, src.data(), n) &&
            WriteColumn(g, "dst", H5T_NATIVE_UINT32, dst.data(), n) &&
            WriteColumn(g, "issue_ps", H5T_NATIVE_INT64, m_runner->GetIssuePs().data(), n) &&
            WriteColumn(g, "complete_ps", H5T_NATIVE_INT64, m_runner->GetCompletePs().data(), n);
        if (g >= 0)
        {
            H5Gclose(g);
        }
        if (top >= 0)
        {
            H5Gclose(top);
        }
        H5Fclose(h5);
        return ok;
    }

  private:
    std::unique_ptr<MessageTraceRunner> m_runner; //!< the replay
    std::string m_name;                           //!< the workload's name
    int64_t m_endPs{0};                           //!< the last completion (Finish)
};

/// \param ops a fabric operation \return the registered fabrics that offer it ("sue, ualink")
std::string
FabricsWith(uint32_t op)
{
    std::string out;
    for (const FabricKind* k : FabricKindRegistry::GetAll())
    {
        if (k->GetOperations() & op)
        {
            out += (out.empty() ? "" : ", ") + k->GetName();
        }
    }
    return out.empty() ? "none" : out;
}

} // namespace

std::map<std::string, std::string>
MessageTraceWorkloadKind::Config::GetTexts() const
{
    return {{"file", file}, {"format", format}};
}

std::map<std::string, uint64_t>
MessageTraceWorkloadKind::Config::GetCounts() const
{
    return {{"messages", trace ? trace->GetRows().size() : 0}, {"ranks", placement.size()}};
}

std::string
MessageTraceWorkloadKind::Config::GetSourceFile() const
{
    return file;
}

std::string
MessageTraceWorkloadKind::GetName() const
{
    return "message-trace";
}

std::string
MessageTraceWorkloadKind::GetSummary() const
{
    return "a message trace (CSV or HDF5, src/workload/doc/workload.rst)";
}

std::string
MessageTraceWorkloadKind::GetChecks() const
{
    return "message-trace: every row of the file is checked before the run (errors name the "
           "file, its line or row and the column): known and required columns, values that "
           "parse, src and dst distinct ranks of the placement, time or after (not both), after "
           "ids that exist and form no cycle, operations the fabric offers; the placement's "
           "accelerators are distinct and below pod.accelerators.";
}

void
MessageTraceWorkloadKind::DeclareKeys(std::vector<FabricConfigKey>& k) const
{
    using K = FabricConfigKey;
    // workloads[].file is declared by the pod (shared with kind: dag).
    k.push_back(K("workloads[].format", K::ENUM)
                    .Allowed({"csv", "hdf5"})
                    .Note("by the file's extension: .h5 or .hdf5 is hdf5, any other csv")
                    .Kinds({"message-trace"})
                    .Help("message-trace: the trace file's format."));
    k.push_back(K("workloads[].time-scale", K::DOUBLE)
                    .Default("1")
                    .Min(0)
                    .Kinds({"message-trace"})
                    .Help("message-trace: every time and delay of the trace is multiplied by "
                          "this (0.5 replays it twice as fast), rounded to the picosecond."));
    k.push_back(K("workloads[].placement", K::LIST)
                    .Element(K::UINT)
                    .Note("linear: rank i on accelerator i, ranks 0 to accelerators - 1")
                    .Kinds({"message-trace"})
                    .Help("message-trace: the accelerator of each rank of the trace (rank i on "
                          "placement[i]); distinct accelerators below pod.accelerators."));
}

std::shared_ptr<const WorkloadConfig>
MessageTraceWorkloadKind::Read(const FabricConfigReader& in,
                               const std::string& p,
                               const Context& context) const
{
    auto c = std::make_shared<Config>();
    bool named = false;
    const auto name = in.Get(p + ".name", false, &named);
    if (named)
    {
        c->name = name.str;
    }
    else
    {
        // The pod's default name, <kind>-<index>, from the path "workloads[i]".
        const auto open = p.rfind('[');
        c->name = GetName() + "-" + p.substr(open + 1, p.size() - open - 2);
    }
    if (!in.Has(p + ".file"))
    {
        in.Fail(p + ".file", "required key is missing (the trace file)");
    }
    c->file = in.ResolvePath(p + ".file");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(c->file, ec))
    {
        in.Fail(p + ".file", "cannot read the trace file " + c->file + " (no such file)");
    }
    bool formatGiven = false;
    const auto format = in.Get(p + ".format", false, &formatGiven);
    if (formatGiven)
    {
        c->format = format.str;
    }
    else
    {
        const std::string ext = std::filesystem::path(c->file).extension().string();
        c->format = ext == ".h5" || ext == ".hdf5" ? "hdf5" : "csv";
    }
    c->timeScale = in.Get(p + ".time-scale").d;
    c->tclass = static_cast<uint8_t>(in.Get(p + ".class").u);
    c->start = context.start;
    const std::size_t places = in.GetListSize(p + ".placement");
    if (places == 0 && in.Has(p + ".placement"))
    {
        in.Fail(p + ".placement", "an empty placement places no rank");
    }
    std::vector<bool> used(context.accelerators, false);
    for (std::size_t i = 0; i < places; ++i)
    {
        const std::string item = p + ".placement[" + std::to_string(i) + "]";
        const uint64_t a = in.Get(item, true).u;
        if (a >= context.accelerators)
        {
            in.Fail(item,
                    "accelerator " + std::to_string(a) + " is outside the pod (pod.accelerators " +
                        std::to_string(context.accelerators) + ")");
        }
        if (used[a])
        {
            in.Fail(item, "accelerator " + std::to_string(a) + " is placed twice");
        }
        used[a] = true;
        c->placement.push_back(static_cast<uint32_t>(a));
    }
    if (places == 0)
    {
        for (uint32_t a = 0; a < context.accelerators; ++a)
        {
            c->placement.push_back(a);
        }
    }
    MessageTrace::Limits limits;
    limits.ranks = static_cast<uint32_t>(c->placement.size());
    limits.fabric = context.fabric;
    limits.readFabrics = FabricsWith(FabricKind::READ);
    limits.atomicFabrics = FabricsWith(FabricKind::ATOMIC);
    if (const FabricKind* kind = FabricKindRegistry::Find(context.fabric))
    {
        limits.operations = kind->GetOperations();
        limits.checkOperation = [kind](uint32_t op, uint64_t bytes) {
            return kind->CheckOperation(op, bytes);
        };
    }
    try
    {
        c->trace = std::make_shared<MessageTrace>(MessageTrace::Load(c->file, c->format, limits));
    }
    catch (const FabricInputError& e)
    {
        in.FailIn(e.GetFile(), e.GetLine(), e.GetField(), e.GetMessage());
    }
    c->trace->Scale(c->timeScale);
    return c;
}

std::unique_ptr<WorkloadRun>
MessageTraceWorkloadKind::Start(const WorkloadConfig& config,
                                const std::vector<Ptr<FabricEndpoint>>& endpoints,
                                std::string& error) const
{
    const auto& c = dynamic_cast<const Config&>(config);
    auto runner = std::make_unique<MessageTraceRunner>(c.trace, c.placement, c.tclass, c.start);
    if (!runner->Start(endpoints, error))
    {
        return nullptr;
    }
    return std::make_unique<MessageTraceWorkloadRun>(std::move(runner), c.name);
}

} // namespace ns3
