/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-model-spec.h"

namespace ns3
{

uint32_t
PyxisModelSpec::GetChips() const
{
    return parallelism.tensor * parallelism.data;
}

uint32_t
PyxisModelSpec::DtypeBytes(Dtype d)
{
    return d == FP16 ? 2 : 1;
}

std::string
PyxisModelSpec::DtypeName(Dtype d)
{
    return d == FP16 ? "fp16" : "fp8";
}

std::string
PyxisModelSpec::TpCollectiveName(TpCollective c)
{
    return c == TP_ALL_GATHER ? "all-gather" : "all-reduce";
}

std::string
PyxisModelSpec::ReductionName(Reduction r)
{
    return r == INMEM_ADD ? "inmem-add" : "vpu";
}

std::string
PyxisModelSpec::SplitName(Split s)
{
    switch (s)
    {
    case SPLIT_ROW:
        return "row";
    case SPLIT_COLUMN:
        return "column";
    case SPLIT_NONE:
        return "none";
    }
    return "?";
}

std::string
PyxisModelSpec::DataSyncName(DataSync s)
{
    return s == SYNC_WEIGHTS ? "weights" : "none";
}

std::string
PyxisModelSpec::LayerKindName(LayerKind k)
{
    switch (k)
    {
    case TRANSFORMER:
        return "transformer";
    case LINEAR:
        return "linear";
    case CONV3X3:
        return "conv3x3";
    }
    return "?";
}

} // namespace ns3
