/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef KERNEL_TESTBED_H
#define KERNEL_TESTBED_H

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief A star of Linux network namespaces: one per host, one "switch" namespace with a bridge,
 * a veth pair per host, every port's egress shaped (tbf) with a drop-tail queue (pfifo/bfifo).
 *
 * Design (why it cannot leak): the namespaces are anonymous. Each one is created by unshare()
 * in the calling thread and held only by a file descriptor of this object; nothing is mounted
 * under /run/netns and no long-lived process is started. Veths, bridge and qdiscs live inside
 * those namespaces (no device is ever created in the caller's namespace), so when the
 * descriptors close (destructor, exception, or the process dying on SIGINT/SIGKILL/crash) the
 * kernel destroys the namespaces and everything in them. Configuration runs `ip`, `tc` and
 * `ethtool` as short-lived children spawned from a thread that has entered the namespace
 * (children inherit the thread's namespace); each is waited for before the next.
 *
 * Sockets are opened by RunIn(): the calling thread enters a host's namespace, runs the
 * function (which opens sockets; a socket stays in the namespace it was created in), and
 * returns to its own namespace. One thread can therefore drive every host's sockets from one
 * event loop. Callers must not share the thread with code that expects its namespace to
 * stay fixed while RunIn() runs (LinuxBackend uses a dedicated thread).
 *
 * Addresses: host h is 10.77.0.(h+1)/24 on its veth "eth0"; the switch side of host h's pair is
 * "p<h>", a port of the bridge "br0".
 */
class LinuxTestbed
{
  public:
    /// What to build.
    struct Config
    {
        uint32_t hosts{2};               //!< number of host namespaces
        uint32_t mtu{1500};              //!< MTU of every veth and the bridge
        double rateBps{1e9};             //!< every port's shaped egress rate, bit/s (dilated)
        std::string switchQueue{"100p"}; //!< switch port queue: "<n>p" packets or "<n>B" bytes
        std::string hostQueue{"100p"};   //!< host egress queue, same syntax
        double burstSeconds{1e-3};       //!< tbf bucket: rate x this, at least 2 frames
        /// tcp_slow_start_after_idle of every host (the kernel default is 1)
        bool slowStartAfterIdle{true};
        /// more sysctls of every host namespace, as (dotted name under net., value), e.g.
        /// ("net.ipv4.tcp_tso_rtt_log", "0"); written after the ones above
        std::vector<std::pair<std::string, std::string>> sysctls;
    };

    /**
     * \brief Parse "name=value[,name=value...]" (names under net., e.g.
     * net.ipv4.tcp_tso_rtt_log=0) for Config::sysctls.
     * \param option the option's name for messages
     * \param text the list ("" for none)
     * \return the pairs
     * \throws TrainingInputError naming the option and the bad item
     */
    static std::vector<std::pair<std::string, std::string>> ParseSysctls(const std::string& option,
                                                                         const std::string& text);

    /// Bytes a switch port has carried (Ethernet frames, as the kernel counts them).
    struct PortBytes
    {
        uint64_t up;   //!< host -> switch (the switch port's rx_bytes)
        uint64_t down; //!< switch -> host (the switch port's tx_bytes, after its shaper)
    };

    /**
     * \brief Build the star (undone by the destructor; on failure, undone before throwing).
     * \param config what to build
     * \throws TrainingInputError naming the command that failed and its error output
     */
    explicit LinuxTestbed(const Config& config);
    /// Closes the namespace descriptors: the kernel removes namespaces, veths and qdiscs.
    ~LinuxTestbed();

    LinuxTestbed(const LinuxTestbed&) = delete;
    LinuxTestbed& operator=(const LinuxTestbed&) = delete;

    /**
     * \brief Run fn with the calling thread inside host's namespace, then return to the
     * thread's previous namespace (also when fn throws).
     * \param host host index, or GetSwitch()
     * \param fn what to run (typically: open sockets)
     */
    void RunIn(uint32_t host, const std::function<void()>& fn) const;

    /** \return the index RunIn() takes for the switch namespace */
    uint32_t GetSwitch() const;
    /**
     * \param host host index
     * \return its IPv4 address, dotted
     */
    static std::string GetAddress(uint32_t host);
    /** \return per host, the bytes its switch port carried so far in both directions */
    std::vector<PortBytes> ReadPortBytes() const;
    /**
     * \param host host index, or GetSwitch()
     * \return tc -s qdisc show output of that namespace (for drops and diagnostics)
     */
    std::string ShowQdiscs(uint32_t host) const;
    /**
     * \brief Total packets dropped by the qdiscs of every namespace (tc -s statistics).
     * \return drops
     */
    uint64_t CountQdiscDrops() const;

    /**
     * \brief Whether this host can build a testbed at all.
     * \return "" when it can; otherwise what is missing and what to do
     */
    static std::string GetUnavailableReason();
    /**
     * \brief Network-namespace descriptors this process holds right now (the testbed's
     * namespaces are held only by such descriptors; the leak test counts them).
     * \return the count
     */
    static uint32_t CountNamespaceDescriptors();

    /**
     * \brief Set the calling thread's nice value (real-time runs must not queue behind other
     * work); silently kept as it is when not permitted.
     * \param nice -20..19
     */
    static void RaisePriority(int nice);

    /**
     * \brief Run a command (no shell) in the calling thread's namespace and wait for it.
     * \param argv program and arguments (looked up in PATH)
     * \param output receives stdout and stderr together (may be null)
     * \return the exit status (-1 if it could not start, 128+n if killed by signal n)
     */
    static int Execute(const std::vector<std::string>& argv, std::string* output);

  private:
    /// Create the namespaces (anonymous, held by m_fds).
    void CreateNamespaces();
    /// Create the bridge and every veth pair, with addresses, MTU and offloads off.
    void CreateLinks();
    /// Shape every port's egress: tbf at the rate, a pfifo/bfifo child of the queue size.
    void CreateShapers();
    /**
     * \brief Add tbf + fifo on one device in the current namespace.
     * \param dev device name
     * \param queue queue size text
     */
    void Shape(const std::string& dev, const std::string& queue) const;
    /**
     * \brief Execute() and throw (with the output) unless it exits 0.
     * \param argv the command
     */
    static void Check(const std::vector<std::string>& argv);
    /// Close every namespace descriptor.
    void Close();

    Config m_config;        //!< what was asked for
    std::vector<int> m_fds; //!< namespace descriptors: hosts, then the switch
    int m_counters;         //!< /proc/net/dev opened inside the switch namespace (or -1)
};

} // namespace ns3

#endif /* KERNEL_TESTBED_H */
