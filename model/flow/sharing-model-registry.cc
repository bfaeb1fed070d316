/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sharing-model-registry.h"

#include "ns3/abort.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/training-input-error.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// \return the registry's storage (a function-local static: safe during static initialisation)
std::vector<SharingModelRegistry::Entry>&
Entries()
{
    static std::vector<SharingModelRegistry::Entry> entries;
    return entries;
}

/// Accepts a StringValue holding a registered name; the list is read at each check.
class SharingNameChecker : public StringChecker
{
  public:
    bool Check(const AttributeValue& value) const override
    {
        const auto* text = dynamic_cast<const StringValue*>(&value);
        return text && SharingModelRegistry::Has(text->Get());
    }

    std::string GetValueTypeName() const override
    {
        return "ns3::StringValue";
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return true;
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        const auto names = SharingModelRegistry::Names();
        std::string text;
        for (const auto& n : names)
        {
            text += (text.empty() ? "" : "|") + n;
        }
        return text;
    }

    Ptr<AttributeValue> Create() const override
    {
        return ns3::Create<StringValue>();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        const auto* from = dynamic_cast<const StringValue*>(&source);
        auto* to = dynamic_cast<StringValue*>(&destination);
        if (!from || !to)
        {
            return false;
        }
        *to = *from;
        return true;
    }
};

} // namespace

bool
SharingModelRegistry::Entry::Has(Flag flag) const
{
    return (flags & flag) != 0;
}

bool
SharingModelRegistry::Entry::IsComposite() const
{
    return typeName.empty();
}

void
SharingModelRegistry::Add(const Entry& entry)
{
    NS_ABORT_MSG_IF(Has(entry.name), "sharing model '" << entry.name << "' registered twice");
    NS_ABORT_MSG_IF(entry.typeName.empty() == entry.meanOf.first.empty(),
                    "sharing model '" << entry.name << "': a TypeId or a meanOf pair, not both");
    // After every entry of lower or equal rank: equal ranks keep their registration order.
    auto& entries = Entries();
    const auto at = std::upper_bound(entries.begin(),
                                     entries.end(),
                                     entry.rank,
                                     [](uint32_t rank, const Entry& e)
                                     {
                                         return rank < e.rank;
                                     });
    entries.insert(at, entry);
}

std::vector<SharingModelRegistry::Entry>
SharingModelRegistry::GetEntries()
{
    return Entries();
}

std::vector<std::string>
SharingModelRegistry::Names(uint32_t flags)
{
    std::vector<std::string> names;
    for (const auto& e : Entries())
    {
        if ((e.flags & flags) == flags)
        {
            names.push_back(e.name);
        }
    }
    return names;
}

bool
SharingModelRegistry::Has(const std::string& name)
{
    const auto& entries = Entries();
    return std::any_of(entries.begin(),
                       entries.end(),
                       [&name](const Entry& e)
                       {
                           return e.name == name;
                       });
}

SharingModelRegistry::Entry
SharingModelRegistry::Find(const std::string& name)
{
    for (const auto& e : Entries())
    {
        if (e.name == name)
        {
            return e;
        }
    }
    throw TrainingInputError("--sharing: unknown value '" + name + "' (expected "
                             + Join(Names(), ", ") + ")");
}

SharingModelRegistry::Entry
SharingModelRegistry::GetRing()
{
    for (const auto& e : Entries())
    {
        if (e.Has(RING))
        {
            return e;
        }
    }
    NS_FATAL_ERROR("no sharing model is registered with the RING flag");
    return {};
}

Ptr<SharingModel>
SharingModelRegistry::Create(const std::string& name)
{
    const Entry e = Find(name);
    NS_ABORT_MSG_IF(e.IsComposite(), "sharing model '" << name << "' is a composite");
    ObjectFactory factory(e.typeName);
    return factory.Create<SharingModel>();
}

std::string
SharingModelRegistry::ListNames()
{
    std::vector<std::string> names;
    std::string ring;
    for (const auto& e : Entries())
    {
        if (e.Has(RING))
        {
            ring += (ring.empty() ? "" : ", ") + e.name;
        }
        else
        {
            names.push_back(e.name);
        }
    }
    return Join(names, ", ") + (ring.empty() ? "" : " (ring: " + ring + ")");
}

std::string
SharingModelRegistry::Join(const std::vector<std::string>& names, const std::string& last)
{
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        text += (i == 0 ? "" : (i + 1 == names.size() ? last : ", ")) + names[i];
    }
    return text;
}

Ptr<const AttributeChecker>
SharingModelRegistry::MakeNameChecker()
{
    return ns3::Create<SharingNameChecker>();
}

} // namespace ns3
