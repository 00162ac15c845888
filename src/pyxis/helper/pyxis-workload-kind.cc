/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-workload-kind.h"

#include "pyxis-runner.h"

#include "ns3/cell-fabric-adapter.h"
#include "ns3/fabric-config-reader.h"
#include "ns3/pyxis-dag-export.h"
#include "ns3/pyxis-endpoint-binding.h"
#include "ns3/pyxis-model-error.h"
#include "ns3/pyxis-model-loader.h"

#include <cmath>
#include <filesystem>
#include <sstream>

namespace ns3
{

namespace
{

/// A running pyxis workload: its PyxisRunner, as the pod's runner follows it.
class PyxisWorkloadRun : public WorkloadRun
{
  public:
    /// \param runner the set-up runner
    explicit PyxisWorkloadRun(std::unique_ptr<PyxisRunner> runner)
        : m_runner(std::move(runner))
    {
    }

    double GetProgress() const override
    {
        return m_runner->GetProgress(); // trips ended of those built
    }

    std::string GetProgressWhat() const override
    {
        return "of trips ended";
    }

    bool OwnsMessage(uint64_t cookie) const override
    {
        return PyxisEndpointBinding::IsPyxisCookie(cookie);
    }

    void Finish() override
    {
        m_summary = m_runner->Collect();
    }

    Time GetEnd() const override
    {
        return PicoSeconds(static_cast<int64_t>(std::llround(m_summary.endNs * 1e3)));
    }

    std::string GetSummaryLine() const override
    {
        const auto& p = m_summary;
        std::ostringstream os;
        os << "pyxis: " << p.chips << " chips, " << p.layers << " layers, " << p.trips << " trips, "
           << p.jobs << " RDMA jobs, end " << p.endNs << " ns, " << p.open << " jobs open"
           << (p.complete ? " (completed)" : " (NOT completed)");
        return os.str();
    }

    bool WriteTables(const std::string& file) const override
    {
        return m_runner->WriteTables(file, false);
    }

  private:
    std::unique_ptr<PyxisRunner> m_runner; //!< the chips and their programs
    PyxisRunner::Summary m_summary;        //!< the counts (Finish)
};

} // namespace

std::map<std::string, std::string>
PyxisWorkloadKind::Config::GetTexts() const
{
    return {{"model", model}, {"rx_posting", rxPosting}};
}

std::map<std::string, uint64_t>
PyxisWorkloadKind::Config::GetCounts() const
{
    return {{"chips", chips}};
}

std::string
PyxisWorkloadKind::Config::GetSourceFile() const
{
    return model;
}

std::shared_ptr<const DagProgram>
PyxisWorkloadKind::Config::GetExportDag() const
{
    return PyxisDagExport::Build(PyxisModelLoader::LoadFile(model));
}

std::string
PyxisWorkloadKind::GetName() const
{
    return "pyxis";
}

std::string
PyxisWorkloadKind::GetSummary() const
{
    return "a Pyxis model (src/pyxis/doc/pyxis.rst)";
}

std::string
PyxisWorkloadKind::GetChecks() const
{
    return "pyxis: is the only workload and starts at 0; the model file is valid (its errors "
           "name its own file, line and field) and its chips (tensor x data) are at most "
           "accelerators.";
}

void
PyxisWorkloadKind::DeclareKeys(std::vector<FabricConfigKey>& k) const
{
    using K = FabricConfigKey;
    k.push_back(K("workloads[].model", K::STRING)
                    .Required()
                    .Kinds({"pyxis"})
                    .Help("Pyxis model file (YAML, src/pyxis/doc/pyxis.rst), relative to the "
                          "scenario's directory: chip i of the model runs on accelerator i."));
    k.push_back(K("workloads[].rx-posting", K::ENUM)
                    .Default("pre-posted")
                    .Allowed({"pre-posted", "late"})
                    .Kinds({"pyxis"})
                    .Help("pyxis: the Rx RDMA jobs posted with the compute before each "
                          "collective (pre-posted) or with each step's Tx job (late)."));
}

std::shared_ptr<const WorkloadConfig>
PyxisWorkloadKind::Read(const FabricConfigReader& in,
                        const std::string& p,
                        const Context& context) const
{
    if (context.workloads != 1)
    {
        in.Fail(p + ".kind",
                "a pyxis workload is the only workload of its scenario (its chips post their "
                "RDMA jobs on the pod's endpoints, which other workloads' messages cannot "
                "share)");
    }
    if (context.start.IsStrictlyPositive())
    {
        in.Fail(p + ".start",
                "a pyxis workload starts at 0 (its chips submit their trips when built)");
    }
    auto c = std::make_shared<Config>();
    c->model = in.ResolvePath(p + ".model");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(c->model, ec))
    {
        in.Fail(p + ".model", "cannot read the model file " + c->model + " (no such file)");
    }
    c->rxPosting = in.Get(p + ".rx-posting").str;
    PyxisModelSpec spec;
    try
    {
        spec = PyxisModelLoader::LoadFile(c->model);
    }
    catch (const PyxisModelError& e)
    {
        in.FailIn(e.GetFile(), e.GetLine(), e.GetField(), e.GetMessage());
    }
    c->chips = spec.GetChips();
    if (c->chips > context.accelerators)
    {
        in.Fail(p + ".model",
                "the model runs on " + std::to_string(c->chips) + " chips (tensor " +
                    std::to_string(spec.parallelism.tensor) + " x data " +
                    std::to_string(spec.parallelism.data) +
                    "), more than pod.accelerators = " + std::to_string(context.accelerators));
    }
    return c;
}

std::unique_ptr<WorkloadRun>
PyxisWorkloadKind::Start(const WorkloadConfig& config,
                         const std::vector<Ptr<FabricEndpoint>>& endpoints,
                         std::string& error) const
{
    const auto& c = dynamic_cast<const Config&>(config);
    PyxisTripProgram::RxPosting posting = PyxisTripProgram::RX_PRE_POSTED;
    PyxisRunner::ParseRxPosting(c.rxPosting, posting);
    auto runner = std::make_unique<PyxisRunner>();
    const PyxisModelSpec spec = PyxisModelLoader::LoadFile(c.model);
    // On the cell fabric the chips post their jobs through the adapters' explicit RDMA job API
    // (the Pyxis chip's own path, spec section 11.8); on any other fabric through the endpoint
    // API.
    std::vector<Ptr<CellFabricAdapter>> adapters;
    for (const auto& ep : endpoints)
    {
        if (Ptr<CellFabricAdapter> a = DynamicCast<CellFabricAdapter>(ep))
        {
            adapters.push_back(a);
        }
    }
    const bool ok = adapters.size() == endpoints.size()
                        ? runner->Setup(spec, adapters, posting, error)
                        : runner->Setup(spec, endpoints, posting, error);
    if (!ok)
    {
        return nullptr;
    }
    return std::make_unique<PyxisWorkloadRun>(std::move(runner));
}

} // namespace ns3
