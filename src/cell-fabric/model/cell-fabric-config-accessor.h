/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_CONFIG_ACCESSOR_H
#define CELL_FABRIC_CONFIG_ACCESSOR_H

#include "cell-fabric-adapter.h"

#include "ns3/attribute-accessor-helper.h"

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief The accessor of a CellFabricAdapter attribute whose value lives in the configuration
 * of one of the adapter's parts (CellFabricTxPipeline, CellFabricRxPipeline,
 * CellFabricRdmaJobManager, CellFabricDatagramService).
 *
 * The attribute is declared on ns3::CellFabricAdapter, so users set it there as before
 * (Config::SetDefault("ns3::CellFabricAdapter::FoPipes", ...), SetAttribute, the helper); its
 * value is read and written in the field of the part's Config that the part reads at each use.
 *
 * \tparam V the attribute's value class (UintegerValue, TimeValue, EnumValue, ...)
 * \tparam P the part: P::Config holds the field and P::GetConfigOf(adapter) gives it
 * \tparam F the field's type
 */
template <typename V, typename P, typename F>
class CellFabricConfigAccessor : public AccessorHelper<CellFabricAdapter, V>
{
  public:
    /**
     * \param field the field of the part's Config
     */
    explicit CellFabricConfigAccessor(F P::Config::*field)
        : m_field(field)
    {
    }

  private:
    /**
     * \param object the adapter
     * \param v the value to write
     * \return true if it was written
     */
    bool DoSet(CellFabricAdapter* object, const V* v) const override
    {
        typename AccessorTrait<F>::Result value;
        if (!v->GetAccessor(value))
        {
            return false;
        }
        P::GetConfigOf(*object).*m_field = value;
        return true;
    }

    /**
     * \param object the adapter
     * \param v where the value goes
     * \return true
     */
    bool DoGet(const CellFabricAdapter* object, V* v) const override
    {
        v->Set(P::GetConfigOf(*object).*m_field);
        return true;
    }

    /// \return true
    bool HasGetter() const override
    {
        return true;
    }

    /// \return true
    bool HasSetter() const override
    {
        return true;
    }

    F P::Config::*m_field; //!< the field
};

/**
 * \ingroup cell-fabric
 * \tparam V the attribute's value class
 * \tparam P the part whose Config holds the field
 * \tparam F the field's type
 * \param field the field of P::Config
 * \return an accessor of a CellFabricAdapter attribute kept in that field
 */
template <typename V, typename P, typename F>
Ptr<const AttributeAccessor>
MakeCellFabricConfigAccessor(F P::Config::*field)
{
    return Ptr<const AttributeAccessor>(new CellFabricConfigAccessor<V, P, F>(field), false);
}

} // namespace ns3

#endif /* CELL_FABRIC_CONFIG_ACCESSOR_H */
