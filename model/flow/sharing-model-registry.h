/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SHARING_MODEL_REGISTRY_H
#define SHARING_MODEL_REGISTRY_H

#include "sharing-model.h"

#include "ns3/attribute.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The sharing models by name (--sharing, FlowBackend's Sharing attribute), in a fixed
 * order: the one list that help text, error text, --backend=all and the validation runner's
 * default variants read.
 *
 * Each model registers itself in its own .cc file with DT_REGISTER_SHARING (a single
 * SharingModel subclass) or SharingModelRegistry::Add (a composite, e.g. hybrid, registered by
 * FlowBackend, which computes it). Names() lists them by rank: fcfs, ps, capped, hybrid,
 * calibrated, allreduce. Adding a model is one subclass and one registration line.
 */
class SharingModelRegistry
{
  public:
    /// Properties of an entry (bits of Entry::flags).
    enum Flag : uint32_t
    {
        IN_ALL = 1,       //!< runs in --backend=all and is a default variant of the runner
        HONOURS_CAPS = 2, //!< honours Flow::cap (per-flow caps: --flowCap, the window model)
        RING = 4,         //!< the model of every ring all-reduce (one entry has it)
    };

    /// One sharing model.
    struct Entry
    {
        std::string name;     //!< --sharing value and result variant, e.g. "ps"
        std::string summary;  //!< one line: what it does, with the seed paper and equation
        uint32_t rank{0};     //!< position in Names()
        uint32_t flags{0};    //!< Flag bits
        std::string typeName; //!< a single model's TypeId name; empty for a composite
        /// A composite: the two models whose runs FlowBackend averages (hybrid: fcfs, ps).
        std::pair<std::string, std::string> meanOf;
        /// The model that runs instead when per-flow caps must hold and this one ignores them,
        /// equal to it when no cap binds (ps: capped); empty when there is none.
        std::string cappedForm;

        /// \param flag a Flag \return whether the entry has it
        bool Has(Flag flag) const;
        /// \return whether the entry is a composite (no model object of its own)
        bool IsComposite() const;
    };

    /**
     * \brief Add a model (DT_REGISTER_SHARING does, at load time).
     * \param entry the model; its name must be new, and it has a typeName or a meanOf pair
     */
    static void Add(const Entry& entry);

    /// \return every model, ordered by rank
    static std::vector<Entry> GetEntries();

    /**
     * \param flags Flag bits a model must have (0: every model)
     * \return the names of the models with all of them, ordered by rank
     */
    static std::vector<std::string> Names(uint32_t flags = 0);

    /// \param name a name \return whether a model is registered under it
    static bool Has(const std::string& name);

    /**
     * \param name a --sharing value
     * \return its entry
     * \throws TrainingInputError "--sharing: unknown value 'x' (expected fcfs, ps, ...)"
     */
    static Entry Find(const std::string& name);

    /// \return the entry with the RING flag (aborts when none is registered)
    static Entry GetRing();

    /**
     * \brief Create a single model (not a composite) by name.
     * \param name a --sharing value
     * \return a new model object, its attributes at their defaults
     * \throws TrainingInputError for an unknown name
     */
    static Ptr<SharingModel> Create(const std::string& name);

    /**
     * \return "fcfs, ps, capped, hybrid, calibrated (ring: allreduce)": every model for --help,
     *         the RING model apart (rings always use it)
     */
    static std::string ListNames();

    /**
     * \param names names
     * \param last the word before the last name (", " for a plain list, " or " for a choice)
     * \return "a, b, c" or "a, b or c"
     */
    static std::string Join(const std::vector<std::string>& names, const std::string& last);

    /**
     * \brief A StringValue checker that accepts the registered names (FlowBackend's Sharing
     * attribute). It asks the registry when a value is set, not when the attribute is declared,
     * so models registered later (another translation unit, a test library) are accepted.
     * \return the checker
     */
    static Ptr<const AttributeChecker> MakeNameChecker();
};

} // namespace ns3

/**
 * \brief Register a SharingModel subclass by name at load time (in its .cc file).
 * \param name the --sharing value (what its GetName() returns)
 * \param type the class (inside namespace ns3, with a TypeId constructor)
 * \param rank position in SharingModelRegistry::Names()
 * \param flags SharingModelRegistry::Flag bits
 * \param cappedForm SharingModelRegistry::Entry::cappedForm ("" for none)
 * \param summary one line for --help
 */
#define DT_REGISTER_SHARING(name, type, rank, flags, cappedForm, summary)               \
    static const bool g_##type##SharingRegistered = []                                  \
    {                                                                                   \
        ns3::SharingModelRegistry::Add(                                                 \
            {name, summary, rank, flags, type::GetTypeId().GetName(), {}, cappedForm}); \
        return true;                                                                    \
    }()

#endif /* SHARING_MODEL_REGISTRY_H */
