/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_INVARIANT_CHECK_H
#define FABRIC_INVARIANT_CHECK_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The switch and the reporting of podsim's invariant checks (`podsim run --check`).
 *
 * Components test IsEnabled() at their existing accounting points (a credit spent or returned,
 * a buffer charged or released, a sequence number accepted or acknowledged) and, only when it is
 * on, check the invariant there and count the check. A violation calls Fail(), which throws a
 * Violation naming the invariant, the component (the name the runner registered for it with
 * SetName(), e.g. "p0.sw2:port5"), what was seen and the simulated time. The runner turns it into
 * a non-zero exit status; tests catch it.
 *
 * Off (the default) the checks cost one test of a global boolean per accounting point. The
 * state is process-wide, like the simulator's: Enable() before building a run, Disable() after.
 */
class FabricInvariantCheck
{
  public:
    /// The error a violated invariant raises.
    class Violation : public std::runtime_error
    {
      public:
        /**
         * \param invariant the invariant's name (e.g. "credit accounting")
         * \param component the component (e.g. "p0.sw2:port5")
         * \param message the whole message
         */
        Violation(const std::string& invariant,
                  const std::string& component,
                  const std::string& message)
            : std::runtime_error(message),
              m_invariant(invariant),
              m_component(component)
        {
        }

        /// \return the invariant's name
        const std::string& GetInvariant() const
        {
            return m_invariant;
        }

        /// \return the component
        const std::string& GetComponent() const
        {
            return m_component;
        }

      private:
        std::string m_invariant; //!< invariant
        std::string m_component; //!< component
    };

    /// Invariant names (the first words of every message).
    static constexpr const char* CREDITS = "credit accounting";      //!< credits and grants
    static constexpr const char* BUFFER = "buffer accounting";       //!< buffers, queues, counters
    static constexpr const char* SEQUENCE = "sequence numbers";      //!< retry and transport
    static constexpr const char* EVENT_TIME = "event time";          //!< no event in the past
    static constexpr const char* CONSERVATION = "byte conservation"; //!< per flow, at the end
    static constexpr const char* COMPLETION = "message completion";  //!< per message

    /// \return true while checks are on
    static bool IsEnabled()
    {
        return s_enabled;
    }

    /// \brief Turn checks on (forgets the names and the count of a previous run).
    static void Enable();

    /// \brief Turn checks off and forget the registered names.
    static void Disable();

    /**
     * \brief Give a component a name for the messages (only kept while checks are on).
     * \param object the component (any object whose address a check reports)
     * \param name its name
     */
    static void SetName(const void* object, const std::string& name);

    /**
     * \param object a component
     * \param kind what it is, used with its address when it has no name
     * \return its registered name, or "<kind>@<address>"
     */
    static std::string GetName(const void* object, const char* kind);

    /// \brief Count one check done.
    static void Count()
    {
        ++s_checks;
    }

    /// \brief Count \p n checks done.
    /// \param n checks
    static void Count(uint64_t n)
    {
        s_checks += n;
    }

    /// \return checks done since Enable()
    static uint64_t GetChecks()
    {
        return s_checks;
    }

    /**
     * \brief Report a violated invariant: throws Violation with the message
     * "invariant violated: <invariant>: <component> <detail> at <now> us".
     * \param invariant one of the names above
     * \param object the component (named through GetName)
     * \param kind its kind, for an unnamed component
     * \param detail what was seen (e.g. "credits -1 on VC 0")
     */
    [[noreturn]] static void Fail(const char* invariant,
                                  const void* object,
                                  const char* kind,
                                  const std::string& detail);

    /**
     * \brief Report a violated invariant of a named component (see the other overload).
     * \param invariant one of the names above
     * \param component the component's name
     * \param detail what was seen
     */
    [[noreturn]] static void Fail(const char* invariant,
                                  const std::string& component,
                                  const std::string& detail);

  private:
    static bool s_enabled;    //!< checks on
    static uint64_t s_checks; //!< checks done
};

} // namespace ns3

#endif /* FABRIC_INVARIANT_CHECK_H */
