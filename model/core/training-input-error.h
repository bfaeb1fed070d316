/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_INPUT_ERROR_H
#define TRAINING_INPUT_ERROR_H

#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Bad input given to the distributed-training module by its user.
 *
 * Thrown for a malformed profile, an impossible scenario or an unknown option. The message names
 * the file, the JSON path or the option, says what was found and what was expected, so programs
 * print it and exit with a non-zero status instead of aborting. Programming errors inside the
 * module remain NS_ASSERT / NS_FATAL_ERROR.
 */
class TrainingInputError : public std::runtime_error
{
  public:
    /**
     * \param what the complete message: "<where>: <what is wrong> (expected <what>)"
     */
    explicit TrainingInputError(const std::string& what)
        : std::runtime_error(what)
    {
    }

    /**
     * \param v a number
     * \return v as messages show it (std::ostream's default format: 0.1, 1e+09)
     */
    static std::string Number(double v)
    {
        std::ostringstream os;
        os << v;
        return os.str();
    }

    /**
     * \brief The check of a model parameter: throw "<where>: <what> = <v> (expected
     * <expected>)" unless ok.
     * \param ok whether v is acceptable
     * \param where the model, e.g. "OSF model"
     * \param what the parameter
     * \param v its value
     * \param expected what is acceptable
     */
    static void Require(bool ok,
                        const std::string& where,
                        const std::string& what,
                        double v,
                        const std::string& expected)
    {
        if (!ok)
        {
            throw TrainingInputError(where + ": " + what + " = " + Number(v) + " (expected "
                                     + expected + ")");
        }
    }

    /**
     * \brief Require() with the model named once: a model's source defines
     * `const TrainingInputError::Checker Check("OSF model");` and calls
     * `Check(ok, "Q", q, "bytes >= 0")`.
     */
    class Checker
    {
      public:
        /** \param where the model, e.g. "OSF model" (a string literal) */
        explicit constexpr Checker(const char* where)
            : m_where(where)
        {
        }

        /**
         * \param ok whether v is acceptable
         * \param what the parameter
         * \param v its value
         * \param expected what is acceptable
         */
        void operator()(bool ok,
                        const std::string& what,
                        double v,
                        const std::string& expected) const
        {
            Require(ok, m_where, what, v, expected);
        }

      private:
        const char* m_where; //!< the model
    };
};

} // namespace ns3

#endif /* TRAINING_INPUT_ERROR_H */
