/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kernel-testbed.h"

#include "ns3/log.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <sched.h>
#include <spawn.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinuxTestbed");

namespace
{

/// Descriptor of the calling thread's current network namespace.
int
OpenCurrentNamespace()
{
    int fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        throw TrainingInputError(std::string("linux backend: cannot open "
                                             "/proc/thread-self/ns/net: ")
                                 + std::strerror(errno));
    }
    return fd;
}

/// Enter the namespace behind fd (the calling thread only).
void
Enter(int fd)
{
    if (setns(fd, CLONE_NEWNET) != 0)
    {
        throw TrainingInputError(std::string("linux backend: setns failed: ")
                                 + std::strerror(errno));
    }
}

/// Write a sysctl of the calling thread's namespace; false if the file is absent.
bool
WriteProc(const std::string& path, const std::string& value)
{
    int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
    {
        return false;
    }
    bool ok = write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
    close(fd);
    return ok;
}

/// Every tc/ip/ethtool check GetUnavailableReason makes, in a fresh namespace of this thread.
std::string
ProbeInFreshNamespace()
{
    if (unshare(CLONE_NEWNET) != 0)
    {
        return std::string("cannot create a network namespace (unshare: ") + std::strerror(errno)
               + "); run as root on a kernel with network namespaces";
    }
    const std::vector<std::pair<std::vector<std::string>, std::string>> probes = {
        {{"ip", "link", "set", "lo", "up"}, "`ip` (install iproute2)"},
        {{"ip", "link", "add", "a0", "type", "veth", "peer", "name", "a1"}, "veth devices"},
        {{"ip", "link", "add", "b0", "type", "bridge"}, "bridge devices"},
        {{"ethtool", "-K", "a0", "gso", "off"}, "`ethtool` (install ethtool)"},
        {{"tc",
          "qdisc",
          "add",
          "dev",
          "a0",
          "root",
          "handle",
          "1:",
          "tbf",
          "rate",
          "1gbit",
          "burst",
          "20000",
          "limit",
          "20000"},
         "the tbf qdisc (sch_tbf) or `tc` (iproute2)"},
        {{"tc", "qdisc", "add", "dev", "a0", "parent", "1:1", "pfifo", "limit", "10"},
         "the pfifo qdisc"},
        {{"tc", "qdisc", "add", "dev", "a1", "root", "bfifo", "limit", "10000"}, "the bfifo qdisc"},
    };
    for (const auto& [argv, what] : probes)
    {
        std::string out;
        if (LinuxTestbed::Execute(argv, &out) != 0)
        {
            return "missing " + what + ": '" + argv[0] + " " + argv[1] + " ...' failed: " + out;
        }
    }
    return "";
}

} // namespace

LinuxTestbed::LinuxTestbed(const Config& config)
    : m_config(config),
      m_counters(-1)
{
    NS_LOG_FUNCTION(this << config.hosts);
    try
    {
        CreateNamespaces();
        CreateLinks();
        CreateShapers();
        RunIn(GetSwitch(),
              [this]
              {
                  m_counters = open("/proc/thread-self/net/dev", O_RDONLY | O_CLOEXEC);
              });
        if (m_counters < 0)
        {
            throw TrainingInputError("linux backend: cannot open the switch's /proc/net/dev");
        }
    }
    catch (...)
    {
        Close();
        throw;
    }
}

LinuxTestbed::~LinuxTestbed()
{
    NS_LOG_FUNCTION(this);
    Close();
}

void
LinuxTestbed::Close()
{
    if (m_counters >= 0)
    {
        close(m_counters);
        m_counters = -1;
    }
    for (int fd : m_fds)
    {
        close(fd); // the last reference: the kernel destroys the namespace and its devices
    }
    m_fds.clear();
}

void
LinuxTestbed::CreateNamespaces()
{
    int home = OpenCurrentNamespace();
    for (uint32_t i = 0; i <= m_config.hosts; ++i)
    {
        if (unshare(CLONE_NEWNET) != 0)
        {
            int err = errno;
            Enter(home);
            close(home);
            throw TrainingInputError(std::string("linux backend: unshare(CLONE_NEWNET) failed: ")
                                     + std::strerror(err) + " (needs root)");
        }
        m_fds.push_back(OpenCurrentNamespace());
        // No IPv6 chatter (router solicitations) on the counted ports.
        WriteProc("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
        WriteProc("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
        WriteProc("/proc/sys/net/ipv4/tcp_slow_start_after_idle",
                  m_config.slowStartAfterIdle ? "1" : "0");
        for (const auto& [name, value] : m_config.sysctls)
        {
            std::string path = "/proc/sys/" + name;
            std::replace(path.begin(), path.end(), '.', '/');
            if (!WriteProc(path, value))
            {
                Enter(home);
                close(home);
                throw TrainingInputError("linux backend: cannot set sysctl " + name + "=" + value
                                         + " in a host namespace (" + path
                                         + " absent or the value refused)");
            }
        }
        Enter(home);
    }
    close(home);
}

std::vector<std::pair<std::string, std::string>>
LinuxTestbed::ParseSysctls(const std::string& option, const std::string& text)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        const auto eq = item.find('=');
        const std::string name = item.substr(0, eq);
        const bool nameOk = name.rfind("net.", 0) == 0 && name.find("..") == std::string::npos
                            && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.")
                                   == std::string::npos;
        const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (!nameOk || value.empty()
            || value.find_first_not_of("0123456789 -") != std::string::npos)
        {
            throw TrainingInputError(option + ": '" + item
                                     + "' (expected name=value with a sysctl under net., e.g. "
                                       "net.ipv4.tcp_tso_rtt_log=0, and an integer value)");
        }
        out.emplace_back(name, value);
    }
    return out;
}

void
LinuxTestbed::RunIn(uint32_t host, const std::function<void()>& fn) const
{
    int home = OpenCurrentNamespace();
    try
    {
        Enter(m_fds.at(host));
        fn();
    }
    catch (...)
    {
        Enter(home);
        close(home);
        throw;
    }
    Enter(home);
    close(home);
}

uint32_t
LinuxTestbed::GetSwitch() const
{
    return m_config.hosts;
}

std::string
LinuxTestbed::GetAddress(uint32_t host)
{
    return "10.77." + std::to_string((host + 1) / 256) + "." + std::to_string((host + 1) % 256);
}

void
LinuxTestbed::CreateLinks()
{
    const std::string mtu = std::to_string(m_config.mtu);
    const std::string switchNs
        = "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(m_fds.at(GetSwitch()));
    RunIn(GetSwitch(),
          []
          {
              Check({"ip", "link", "set", "lo", "up"});
              Check({"ip", "link", "add", "br0", "type", "bridge", "stp_state", "0"});
          });
    for (uint32_t h = 0; h < m_config.hosts; ++h)
    {
        const std::string port = "p" + std::to_string(h);
        RunIn(h,
              [&]
              {
                  Check({"ip", "link", "set", "lo", "up"});
                  Check({"ip",
                         "link",
                         "add",
                         "eth0",
                         "mtu",
                         mtu,
                         "type",
                         "veth",
                         "peer",
                         "name",
                         port,
                         "mtu",
                         mtu,
                         "netns",
                         switchNs});
                  Check({"ip", "addr", "add", GetAddress(h) + "/16", "dev", "eth0"});
                  Check({"ethtool", "-K", "eth0", "tso", "off", "gso", "off", "gro", "off"});
                  Check({"ip", "link", "set", "eth0", "up"});
              });
        RunIn(GetSwitch(),
              [&]
              {
                  Check({"ethtool", "-K", port, "tso", "off", "gso", "off", "gro", "off"});
                  Check({"ip", "link", "set", port, "master", "br0", "up"});
              });
    }
    RunIn(GetSwitch(),
          []
          {
              Check({"ip", "link", "set", "br0", "up"});
          });
}

void
LinuxTestbed::CreateShapers()
{
    for (uint32_t h = 0; h < m_config.hosts; ++h)
    {
        RunIn(h,
              [&]
              {
                  Shape("eth0", m_config.hostQueue);
              });
        RunIn(GetSwitch(),
              [&]
              {
                  Shape("p" + std::to_string(h), m_config.switchQueue);
              });
    }
}

void
LinuxTestbed::Shape(const std::string& dev, const std::string& queue) const
{
    const uint64_t frame = TrainingNetwork::GetEthernetFrameBytes(m_config.mtu); // tbf, fifo
    const uint64_t burst
        = std::max<uint64_t>(2 * frame,
                             static_cast<uint64_t>(m_config.rateBps / 8 * m_config.burstSeconds));
    char rate[32];
    std::snprintf(rate, sizeof(rate), "%.0fbit", m_config.rateBps);
    Check({"tc",
           "qdisc",
           "add",
           "dev",
           dev,
           "root",
           "handle",
           "1:",
           "tbf",
           "rate",
           rate,
           "burst",
           std::to_string(burst),
           "limit",
           std::to_string(burst)});
    if (queue.empty() || (queue.back() != 'p' && queue.back() != 'B'))
    {
        throw TrainingInputError("linux backend: queue size '" + queue
                                 + "' (expected <n>p or <n>B)");
    }
    const std::string n = queue.substr(0, queue.size() - 1);
    Check({"tc",
           "qdisc",
           "add",
           "dev",
           dev,
           "parent",
           "1:1",
           "handle",
           "10:",
           queue.back() == 'p' ? "pfifo" : "bfifo",
           "limit",
           n});
}

std::vector<LinuxTestbed::PortBytes>
LinuxTestbed::ReadPortBytes() const
{
    std::vector<PortBytes> ports(m_config.hosts, PortBytes{0, 0});
    std::string text;
    char buf[8192];
    ssize_t n;
    lseek(m_counters, 0, SEEK_SET);
    while ((n = read(m_counters, buf, sizeof(buf))) > 0)
    {
        text.append(buf, static_cast<std::size_t>(n));
    }
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
    {
        auto colon = line.find(':');
        if (colon == std::string::npos)
        {
            continue;
        }
        std::string name = line.substr(0, colon);
        name.erase(0, name.find_first_not_of(' '));
        if (name.size() < 2 || name[0] != 'p'
            || name.find_first_not_of("0123456789", 1) != name.npos)
        {
            continue;
        }
        uint32_t h = static_cast<uint32_t>(std::stoul(name.substr(1)));
        std::istringstream fields(line.substr(colon + 1));
        uint64_t v[9];
        for (auto& x : v)
        {
            fields >> x; // rx: bytes packets errs drop fifo frame compressed multicast; tx: bytes
        }
        if (h < ports.size())
        {
            ports[h] = PortBytes{v[0], v[8]};
        }
    }
    return ports;
}

std::string
LinuxTestbed::ShowQdiscs(uint32_t host) const
{
    std::string out;
    RunIn(host,
          [&out]
          {
              Execute({"tc", "-s", "qdisc", "show"}, &out);
          });
    return out;
}

uint64_t
LinuxTestbed::CountQdiscDrops() const
{
    uint64_t drops = 0;
    for (uint32_t i = 0; i <= m_config.hosts; ++i)
    {
        // tbf's own statistics include its child fifo's drops: count the tbf lines only.
        std::istringstream in(ShowQdiscs(i));
        std::string line;
        bool tbf = false;
        while (std::getline(in, line))
        {
            if (line.rfind("qdisc ", 0) == 0)
            {
                tbf = line.rfind("qdisc tbf", 0) == 0;
                continue;
            }
            auto pos = line.find("(dropped ");
            if (tbf && pos != std::string::npos)
            {
                drops += std::stoull(line.substr(pos + 9));
            }
        }
    }
    return drops;
}

int
LinuxTestbed::Execute(const std::vector<std::string>& argv, std::string* output)
{
    std::vector<char*> args;
    for (const auto& a : argv)
    {
        args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
    {
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    pid_t pid = -1;
    // posix_spawn clones the calling thread: the child starts in this thread's namespace.
    int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof(buf))) > 0)
    {
        text.append(buf, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    if (output)
    {
        *output = rc == 0 ? text : std::string("cannot run ") + argv[0] + ": " + std::strerror(rc);
    }
    if (rc != 0)
    {
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void
LinuxTestbed::RaisePriority(int nice)
{
    // On Linux a thread id is a valid PRIO_PROCESS target: this thread only.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), nice);
}

void
LinuxTestbed::Check(const std::vector<std::string>& argv)
{
    std::string out;
    if (Execute(argv, &out) != 0)
    {
        std::string cmd;
        for (const auto& a : argv)
        {
            cmd += (cmd.empty() ? "" : " ") + a;
        }
        throw TrainingInputError("linux backend: '" + cmd + "' failed: " + out);
    }
}

std::string
LinuxTestbed::GetUnavailableReason()
{
    static std::once_flag once;
    static std::string reason;
    std::call_once(once,
                   []
                   {
                       if (geteuid() != 0)
                       {
                           reason = "needs root (network namespaces, veth, tc): run as root";
                           return;
                       }
                       // A throw-away thread: its fresh namespace dies with it.
                       std::thread probe(
                           []
                           {
                               reason = ProbeInFreshNamespace();
                           });
                       probe.join();
                   });
    return reason;
}

uint32_t
LinuxTestbed::CountNamespaceDescriptors()
{
    uint32_t count = 0;
    DIR* dir = opendir("/proc/self/fd");
    if (!dir)
    {
        return 0;
    }
    while (dirent* e = readdir(dir))
    {
        char target[256];
        std::string path = std::string("/proc/self/fd/") + e->d_name;
        ssize_t n = readlink(path.c_str(), target, sizeof(target) - 1);
        if (n > 0 && std::string(target, static_cast<std::size_t>(n)).rfind("net:[", 0) == 0)
        {
            ++count;
        }
    }
    closedir(dir);
    return count;
}

} // namespace ns3
