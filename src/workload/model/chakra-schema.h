/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_SCHEMA_H
#define CHAKRA_SCHEMA_H

#include <cstdint>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief The Chakra execution trace schema (package ChakraProtoMsg, the field numbers and types
 * of the public et_def.proto), as protobuf descriptors built at run time.
 *
 * src/workload/model/chakra-et.proto is the same schema as a .proto file; this class builds it
 * with protobuf's descriptor API (a FileDescriptorProto filled in code, a DescriptorPool and a
 * DynamicMessageFactory), so that no generated code has to be built in the standalone build,
 * in an ns-3 tree and in a waf-era tree alike (src/workload/doc/workload.rst). Messages are
 * google::protobuf::Message objects read and written through their Reflection.
 */
class ChakraSchema
{
  public:
    /// Node types (enum NodeType).
    enum NodeType : int
    {
        INVALID_NODE = 0,   //!< not a node
        METADATA_NODE = 1,  //!< metadata
        MEM_LOAD_NODE = 2,  //!< a memory load
        MEM_STORE_NODE = 3, //!< a memory store
        COMP_NODE = 4,      //!< computation
        COMM_SEND_NODE = 5, //!< a point-to-point send
        COMM_RECV_NODE = 6, //!< a point-to-point receive
        COMM_COLL_NODE = 7, //!< a collective
    };

    /// Collectives (enum CollectiveCommType, the comm_type attribute).
    enum CollectiveCommType : int
    {
        ALL_REDUCE = 0,           //!< all-reduce
        REDUCE = 1,               //!< reduce
        ALL_GATHER = 2,           //!< all-gather
        GATHER = 3,               //!< gather
        SCATTER = 4,              //!< scatter
        BROADCAST = 5,            //!< broadcast
        ALL_TO_ALL = 6,           //!< all-to-all
        REDUCE_SCATTER = 7,       //!< reduce-scatter
        REDUCE_SCATTER_BLOCK = 8, //!< reduce-scatter, equal blocks
        BARRIER = 9,              //!< barrier
    };

    /// \return the schema (built on first use)
    static const ChakraSchema& Get();

    /// \return the schema as a file descriptor (file chakra-et.proto, package ChakraProtoMsg)
    static google::protobuf::FileDescriptorProto BuildFileProto();

    /// \return the GlobalMetadata message type
    const google::protobuf::Descriptor* GetMetadata() const;
    /// \return the Node message type
    const google::protobuf::Descriptor* GetNode() const;
    /// \return the AttributeProto message type
    const google::protobuf::Descriptor* GetAttribute() const;

    /// \param type a message type of this schema \return a new, empty message of it
    std::unique_ptr<google::protobuf::Message> New(const google::protobuf::Descriptor* type) const;

    /// \param t a node type \return its name in the schema ("COMP_NODE"; the number if unknown)
    static std::string NodeTypeName(int t);

  private:
    ChakraSchema();

    google::protobuf::DescriptorPool m_pool;                   //!< holds the schema
    mutable google::protobuf::DynamicMessageFactory m_factory; //!< makes its messages
    const google::protobuf::Descriptor* m_metadata{nullptr};   //!< GlobalMetadata
    const google::protobuf::Descriptor* m_node{nullptr};       //!< Node
    const google::protobuf::Descriptor* m_attribute{nullptr};  //!< AttributeProto
};

} // namespace ns3

#endif /* CHAKRA_SCHEMA_H */
