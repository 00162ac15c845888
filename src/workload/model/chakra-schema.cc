/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-schema.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraSchema");

namespace
{

/// NodeType's values, by number (the schema's enum and the names errors give).
const std::vector<std::string> NODE_TYPES = {"INVALID_NODE",
                                             "METADATA_NODE",
                                             "MEM_LOAD_NODE",
                                             "MEM_STORE_NODE",
                                             "COMP_NODE",
                                             "COMM_SEND_NODE",
                                             "COMM_RECV_NODE",
                                             "COMM_COLL_NODE"};

using google::protobuf::DescriptorProto;
using google::protobuf::EnumDescriptorProto;
using google::protobuf::FieldDescriptorProto;
using google::protobuf::FileDescriptorProto;

/**
 * Add a field to a message type.
 * \param m the message type
 * \param name field name
 * \param number field number
 * \param type scalar type (TYPE_MESSAGE or TYPE_ENUM with \p typeName)
 * \param repeated repeated or singular
 * \param typeName the message or enum type, fully qualified (".ChakraProtoMsg.IOInfo")
 * \return the field
 */
FieldDescriptorProto*
AddField(DescriptorProto* m,
         const std::string& name,
         int number,
         FieldDescriptorProto::Type type,
         bool repeated = false,
         const std::string& typeName = "")
{
    FieldDescriptorProto* f = m->add_field();
    f->set_name(name);
    f->set_number(number);
    f->set_type(type);
    f->set_label(repeated ? FieldDescriptorProto::LABEL_REPEATED
                          : FieldDescriptorProto::LABEL_OPTIONAL);
    if (!typeName.empty())
    {
        f->set_type_name(typeName);
    }
    // protoc writes the camel-case name of every field into a descriptor set: so do we, so that
    // the two descriptors compare equal.
    std::string json;
    bool upper = false;
    for (char c : name)
    {
        if (c == '_')
        {
            upper = true;
            continue;
        }
        json += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    f->set_json_name(json);
    return f;
}

/**
 * Add an enum type.
 * \param file the file
 * \param name enum name
 * \param values its values, by number from 0
 */
void
AddEnum(FileDescriptorProto& file, const std::string& name, const std::vector<std::string>& values)
{
    EnumDescriptorProto* e = file.add_enum_type();
    e->set_name(name);
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        auto* v = e->add_value();
        v->set_name(values[i]);
        v->set_number(static_cast<int>(i));
    }
}

} // namespace

FileDescriptorProto
ChakraSchema::BuildFileProto()
{
    using F = FieldDescriptorProto;
    FileDescriptorProto file;
    file.set_name("chakra-et.proto");
    file.set_package("ChakraProtoMsg");
    file.set_syntax("proto3");

    // AttributeProto: name, doc_string, then the oneof `value`: fields 3 to 32 alternate a
    // scalar type and the list of it, in the order of the scalar types below.
    DescriptorProto* attr = file.add_message_type();
    attr->set_name("AttributeProto");
    AddField(attr, "name", 1, F::TYPE_STRING);
    AddField(attr, "doc_string", 2, F::TYPE_STRING);
    attr->add_oneof_decl()->set_name("value");

    struct Scalar
    {
        const char* name; //!< field name prefix ("double")
        const char* list; //!< list message ("DoubleList")
        F::Type type;     //!< scalar type
    };

    const Scalar scalars[] = {
        {"double", "DoubleList", F::TYPE_DOUBLE},
        {"float", "FloatList", F::TYPE_FLOAT},
        {"int32", "Int32List", F::TYPE_INT32},
        {"int64", "Int64List", F::TYPE_INT64},
        {"uint32", "Uint32List", F::TYPE_UINT32},
        {"uint64", "Uint64List", F::TYPE_UINT64},
        {"sint32", "Sint32List", F::TYPE_SINT32},
        {"sint64", "Sint64List", F::TYPE_SINT64},
        {"fixed32", "Fixed32List", F::TYPE_FIXED32},
        {"fixed64", "Fixed64List", F::TYPE_FIXED64},
        {"sfixed32", "Sfixed32List", F::TYPE_SFIXED32},
        {"sfixed64", "Sfixed64List", F::TYPE_SFIXED64},
        {"bool", "BoolList", F::TYPE_BOOL},
        {"string", "StringList", F::TYPE_STRING},
        {"bytes", "BytesList", F::TYPE_BYTES},
    };
    int number = 3;
    for (const Scalar& s : scalars)
    {
        AddField(attr, std::string(s.name) + "_val", number++, s.type)->set_oneof_index(0);
        AddField(attr,
                 std::string(s.name) + "_list",
                 number++,
                 F::TYPE_MESSAGE,
                 false,
                 std::string(".ChakraProtoMsg.") + s.list)
            ->set_oneof_index(0);
    }
    for (const Scalar& s : scalars)
    {
        DescriptorProto* list = file.add_message_type();
        list->set_name(s.list);
        AddField(list, "values", 1, s.type, true);
    }

    DescriptorProto* meta = file.add_message_type();
    meta->set_name("GlobalMetadata");
    AddField(meta, "version", 1, F::TYPE_STRING);
    AddField(meta, "attr", 2, F::TYPE_MESSAGE, true, ".ChakraProtoMsg.AttributeProto");

    AddEnum(file, "NodeType", NODE_TYPES);
    AddEnum(file,
            "CollectiveCommType",
            {"ALL_REDUCE",
             "REDUCE",
             "ALL_GATHER",
             "GATHER",
             "SCATTER",
             "BROADCAST",
             "ALL_TO_ALL",
             "REDUCE_SCATTER",
             "REDUCE_SCATTER_BLOCK",
             "BARRIER"});

    DescriptorProto* node = file.add_message_type();
    node->set_name("Node");
    AddField(node, "id", 1, F::TYPE_UINT64);
    AddField(node, "name", 2, F::TYPE_STRING);
    AddField(node, "type", 3, F::TYPE_ENUM, false, ".ChakraProtoMsg.NodeType");
    AddField(node, "ctrl_deps", 4, F::TYPE_UINT64, true);
    AddField(node, "data_deps", 5, F::TYPE_UINT64, true);
    AddField(node, "start_time_micros", 6, F::TYPE_UINT64);
    AddField(node, "duration_micros", 7, F::TYPE_UINT64);
    AddField(node, "inputs", 8, F::TYPE_MESSAGE, false, ".ChakraProtoMsg.IOInfo");
    AddField(node, "outputs", 9, F::TYPE_MESSAGE, false, ".ChakraProtoMsg.IOInfo");
    AddField(node, "attr", 10, F::TYPE_MESSAGE, true, ".ChakraProtoMsg.AttributeProto");

    DescriptorProto* io = file.add_message_type();
    io->set_name("IOInfo");
    AddField(io, "values", 1, F::TYPE_STRING);
    AddField(io, "shapes", 2, F::TYPE_STRING);
    AddField(io, "types", 3, F::TYPE_STRING);
    return file;
}

ChakraSchema::ChakraSchema()
    : m_factory(&m_pool)
{
    const google::protobuf::FileDescriptor* f = m_pool.BuildFile(BuildFileProto());
    NS_ABORT_MSG_IF(f == nullptr, "the Chakra schema's descriptors do not build");
    m_metadata = f->FindMessageTypeByName("GlobalMetadata");
    m_node = f->FindMessageTypeByName("Node");
    m_attribute = f->FindMessageTypeByName("AttributeProto");
    NS_LOG_FUNCTION(this);
}

const ChakraSchema&
ChakraSchema::Get()
{
    static const ChakraSchema schema;
    return schema;
}

const google::protobuf::Descriptor*
ChakraSchema::GetMetadata() const
{
    return m_metadata;
}

const google::protobuf::Descriptor*
ChakraSchema::GetNode() const
{
    return m_node;
}

const google::protobuf::Descriptor*
ChakraSchema::GetAttribute() const
{
    return m_attribute;
}

std::unique_ptr<google::protobuf::Message>
ChakraSchema::New(const google::protobuf::Descriptor* type) const
{
    return std::unique_ptr<google::protobuf::Message>(m_factory.GetPrototype(type)->New());
}

std::string
ChakraSchema::NodeTypeName(int t)
{
    return t >= 0 && t < static_cast<int>(NODE_TYPES.size()) ? NODE_TYPES[t]
                                                             : "type " + std::to_string(t);
}

} // namespace ns3
