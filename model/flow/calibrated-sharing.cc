/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "calibrated-sharing.h"

#include "sharing-model-registry.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CalibratedSharing");

NS_OBJECT_ENSURE_REGISTERED(CalibratedSharing);
DT_REGISTER_SHARING(
    "calibrated",
    CalibratedSharing,
    50,
    SharingModelRegistry::IN_ALL | SharingModelRegistry::HONOURS_CAPS,
    "",
    "age-weighted max-min calibrated on packet-level TCP: a younger cohort gets "
    "IncumbentWeight of an older one's share (between 000 Sec. 2.2.2's FCFS and PS)");

TypeId
CalibratedSharing::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::CalibratedSharing")
              .SetParent<SharingModel>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<CalibratedSharing>()
              .AddAttribute(
                  "IncumbentWeight",
                  "Weight of a cohort of flows relative to the cohort that started before "
                  "it on the same link: 1 = processor sharing, towards 0 = FCFS between "
                  "cohorts. Default: the fit to two staggered Cubic flows at 10 Gb/s "
                  "(doc/ A calibrated sharing model).",
                  DoubleValue(0.25),
                  MakeDoubleAccessor(&CalibratedSharing::m_incumbentWeight),
                  MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("CohortWindow",
                            "Flows whose connections became active at most this long after the "
                            "first flow of a cohort join that cohort (share equally with it).",
                            TimeValue(MicroSeconds(200)),
                            MakeTimeAccessor(&CalibratedSharing::m_cohortWindow),
                            MakeTimeChecker(Seconds(0)));
    return tid;
}

CalibratedSharing::CalibratedSharing()
    : m_incumbentWeight(0.25),
      m_cohortWindow(MicroSeconds(200))
{
    NS_LOG_FUNCTION(this);
}

CalibratedSharing::~CalibratedSharing()
{
    NS_LOG_FUNCTION(this);
}

void
CalibratedSharing::ComputeWeights(const std::vector<Flow>& flows,
                                  std::size_t nLinks,
                                  std::vector<double>& weights) const
{
    const std::size_t n = flows.size();
    weights.assign(n, 1.0);
    if (n < 2 || m_incumbentWeight >= 1.0)
    {
        return;
    }
    m_byStart.resize(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        m_byStart[i] = static_cast<uint32_t>(i);
    }
    auto earlier = [&flows](uint32_t a, uint32_t b)
    {
        return flows[a].start < flows[b].start
               || (flows[a].start == flows[b].start && flows[a].priority < flows[b].priority);
    };
    if (!std::is_sorted(m_byStart.begin(), m_byStart.end(), earlier))
    {
        std::stable_sort(m_byStart.begin(), m_byStart.end(), earlier);
    }
    m_cohortStart.assign(nLinks, 0.0);
    m_cohortIndex.assign(nLinks, 0);
    m_linkSeen.assign(nLinks, 0);
    const double window = m_cohortWindow.GetSeconds();
    const double logWeight = std::log(std::max(m_incumbentWeight, MIN_WEIGHT));
    for (uint32_t i : m_byStart)
    {
        const Flow& f = flows[i];
        uint32_t cohort = 0; // the youngest of its cohorts over its links
        for (uint32_t k = 0; k < f.nLinks; ++k)
        {
            const uint32_t l = f.links[k];
            NS_ASSERT_MSG(l < nLinks, "flow crosses unknown link " << l);
            if (!m_linkSeen[l])
            {
                m_linkSeen[l] = 1;
                m_cohortStart[l] = f.start;
            }
            else if (f.start - m_cohortStart[l] > window)
            {
                ++m_cohortIndex[l];
                m_cohortStart[l] = f.start;
            }
            cohort = std::max(cohort, m_cohortIndex[l]);
        }
        weights[i] = std::max(MIN_WEIGHT, std::exp(cohort * logWeight));
    }
}

void
CalibratedSharing::AssignRates(const std::vector<Flow>& flows,
                               const std::vector<double>& capacity,
                               std::vector<double>& rates) const
{
    ComputeWeights(flows, capacity.size(), m_weights);
    MaxMinFair(flows, capacity, true, rates, &m_weights);
}

std::string
CalibratedSharing::GetName() const
{
    return "calibrated";
}

} // namespace ns3
