/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-protocol.h"

#include "ns3/fatal-error.h"
#include "ns3/simulator.h"
#include "ns3/training-network.h"

namespace ns3
{

void
ProtocolTransport::StepCompleted(const TrainingResult::StepRecord& /* record */)
{
}

void
ProtocolTransport::WorkerAway(uint32_t /* worker */, Time /* back */)
{
}

void
ProtocolTransport::UpdatesApplied(uint32_t /* worker */, uint32_t /* step */, Time /* when */)
{
}

void
ProtocolTransport::BucketCompleted(const BucketRecord& /* record */)
{
}

void
ProtocolTransport::ScheduleStart(const Time& startJitter,
                                 Ptr<UniformRandomVariable> rng,
                                 std::function<void()> start)
{
    if (startJitter.IsStrictlyPositive())
    {
        Schedule(Seconds(rng->GetValue(0, startJitter.GetSeconds())), std::move(start));
        return;
    }
    start();
}

Time
SimulatorTransport::Now() const
{
    return Simulator::Now();
}

void
SimulatorTransport::Schedule(const Time& delay, std::function<void()> fn)
{
    Simulator::Schedule(delay, std::move(fn));
}

void
SimulatorTransport::Fail(const std::string& what)
{
    NS_FATAL_ERROR(what);
}

Time
WorkerTiming::Compute(Time start, double us) const
{
    const double scaled = us * computeScale;
    if (!slowdown)
    {
        return TrainingProfile::FromMicroseconds(scaled);
    }
    const double seconds = scaled * 1e-6;
    const double stretched = slowdown->Stretch(worker, start.GetSeconds(), seconds);
    // Stretch returns its input exactly when no episode touches the span: keep the run without
    // episodes' rounding there (bit-identical results outside the episodes).
    return TrainingProfile::FromMicroseconds(stretched == seconds ? scaled : stretched * 1e6);
}

Time
WorkerTiming::IntraNode(double bytes) const
{
    return Seconds(TrainingNetwork::GetIntraNodeHalfSeconds(gpusPerNode,
                                                            intraBytesPerSecond,
                                                            intraLatencySeconds,
                                                            bytes));
}

WorkerConfig
WorkerConfig::FromScenario(const TrainingScenario& s, uint32_t index)
{
    WorkerConfig c;
    c.index = index;
    c.steps = s.steps;
    c.overlap = s.overlap;
    c.sampleSteps = s.sampleSteps;
    c.absences = WorkerAbsences::FromScenario(s);
    c.timing = WorkerTiming::Make(s.GetComputeScale(index),
                                  s.gpusPerNode,
                                  s.intraBandwidth,
                                  s.intraLatency);
    return c;
}

WorkerTiming
WorkerTiming::Make(double computeScale, uint32_t gpusPerNode, DataRate intraRate, Time intraLatency)
{
    WorkerTiming t;
    t.computeScale = computeScale;
    t.gpusPerNode = gpusPerNode;
    t.intraBytesPerSecond = intraRate.GetBitRate() / 8.0;
    t.intraLatencySeconds = intraLatency.GetSeconds();
    return t;
}

StepDraw
StepDraw::Draw(const TrainingProfile& profile,
               const TrainingProfile::StepTimes& mean,
               bool sampleSteps,
               Ptr<UniformRandomVariable> rng)
{
    StepDraw d;
    if (sampleSteps && profile.GetNSamples() > 0)
    {
        uint32_t k = rng->GetInteger(0, static_cast<uint32_t>(profile.GetNSamples() - 1));
        d.sample = k + 1;
        d.forward = &profile.GetSample(k).forwardUs;
        d.backward = &profile.GetSample(k).backwardUs;
        return d;
    }
    d.forward = &mean.forwardUs;
    d.backward = &mean.backwardUs;
    return d;
}

} // namespace ns3
