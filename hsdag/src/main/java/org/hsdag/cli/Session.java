package org.hsdag.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.InputShapes;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.cost.InputMemory;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.LatencyModel;
import org.hsdag.plan.Proxies;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.plan.ProxyUnavailableException;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchEngineBuilder;
import org.hsdag.tune.RunObjective;

/**
 * Everything a command measures or models with, opened once from its options: the backend (bound to
 * the model file, with {@code --memory}'s capacities and the command's decorators), the backend
 * that measures the objective, the resolved devices, the memory check, the cost model, the input
 * shapes, the seed and the objective. {@code tune}, {@code plan} and {@code bench} each open one
 * with {@link Setup#open()} instead of assembling these by hand; closing it closes the backend it
 * opened (never an injected one).
 */
public final class Session implements AutoCloseable {
  private final OpGraph graph;
  private final LatencyBackend backend;
  private final LatencyBackend measuring;
  private final DeviceSet devices;
  private final MemoryCheck memory;
  private final Proxies.Resolved proxy;
  private final InputShapes.Resolution shapes;
  private final RunObjective objective;
  private final long seed;
  private final boolean owned;

  private Session(Setup s, OpGraph graph, LatencyBackend backend, LatencyBackend measuring, DeviceSet devices,
      MemoryCheck memory, Proxies.Resolved proxy) {
    this.graph = graph;
    this.backend = backend;
    this.measuring = measuring;
    this.devices = devices;
    this.memory = memory;
    this.proxy = proxy;
    this.shapes = s.request.inputShapes();
    this.objective = s.objective;
    this.seed = s.request.seed();
    this.owned = s.injected == null;
  }

  /** A session for {@code graph} on the backend {@code request} asks for; {@link Setup#open()} opens it. */
  public static Setup of(OpGraph graph, BackendRequest request) {
    return new Setup(graph, request);
  }

  /** The model, as bound to the backend (a backend that compiles model files gets one read from its file). */
  public OpGraph graph() {
    return graph;
  }

  /** The backend with the memory capacities and the command's decorators, measuring latency. */
  public LatencyBackend backend() {
    return backend;
  }

  /** The backend that measures the objective: {@link #backend()} itself, or its throughput decorator. */
  public LatencyBackend measuring() {
    return measuring;
  }

  /** The devices to place on, resolved once against the backend. */
  public DeviceSet devices() {
    return devices;
  }

  /** What fits in each device's memory. */
  public MemoryCheck memory() {
    return memory;
  }

  /** The cost model and where it comes from, under the objective and the memory check; null for a cold search. */
  public Proxies.Resolved proxy() {
    return proxy;
  }

  /** The cost model as the latency model a search consults, or null for a cold search. */
  public LatencyModel latencyModel() {
    return proxy == null ? null : proxy.proxy();
  }

  /**
   * A search over this session, the one place the search gets the session's data: it measures with
   * {@link #measuring()} the bound graph on the resolved devices, keyed by the seed, consulting the
   * latency model and refusing what the memory check rejects; the strategies' {@code SearchContext}
   * is built from the engine.
   */
  public SearchEngineBuilder searchEngine() {
    return SearchEngine.builder(measuring, graph, devices).seed(seed).proxy(latencyModel()).memory(memory);
  }

  /** The sizes of the model's dynamic inputs. */
  public InputShapes.Resolution shapes() {
    return shapes;
  }

  /** What the command optimises or reports. */
  public RunObjective objective() {
    return objective;
  }

  /** The master seed (the simulator's noise and every random component draw from it). */
  public long seed() {
    return seed;
  }

  /**
   * Closes the backend this session opened (an injected backend stays open). The throughput decorator
   * of {@link #measuring()} holds nothing of its own: closing it would close the backend twice.
   */
  @Override
  public void close() {
    if (owned) {
      backend.close();
    }
  }

  /** What a command asks of its session; every part has the default a command without that option gets. */
  public static final class Setup {
    private final OpGraph graph;
    private final BackendRequest request;
    private RunObjective objective = RunObjective.of(org.hsdag.throughput.Objective.LATENCY, 0);
    private boolean measures;
    private Function<LatencyBackend, DeviceSet> devices = b -> new DeviceSet(
        b.devices().stream().map(org.hsdag.backend.DeviceInfo::name).toList());
    private MemoryOptions memoryOptions = new MemoryOptions();
    private boolean memoryBeyondDevices;
    private ProxyChoice proxyChoice = ProxyChoice.NONE;
    private boolean proxyRequired;
    private String proxyErrorPrefix = "";
    private Consumer<String> notices = n -> {};
    private boolean announceModel = true;
    private UnaryOperator<LatencyBackend> decorateOpened = UnaryOperator.identity();
    private UnaryOperator<LatencyBackend> decorate = UnaryOperator.identity();
    private BiFunction<LatencyBackend, OpGraph, OpGraph> binding = (b, g) -> {
      TuneBackends.bind(b, g);
      return g;
    };
    private LatencyBackend injected;
    private Consumer<LatencyBackend> beforeModel = b -> {};
    private BiConsumer<LatencyBackend, DeviceSet> beforeCostModel = (b, d) -> {};
    private String buildStopLine = CostModelBuild.INTERRUPTED;
    private CostModelReuse costModelReuse;

    private Setup(OpGraph graph, BackendRequest request) {
      this.graph = Objects.requireNonNull(graph, "graph");
      this.request = Objects.requireNonNull(request, "request");
    }

    /** The objective; with {@code measuresIt}, the session also opens the backend that measures it. */
    public Setup objective(RunObjective v, boolean measuresIt) {
      objective = v;
      measures = measuresIt;
      return this;
    }

    /** The devices: {@code --devices} resolved against the backend, needing at least {@code minimum} ({@code why}). */
    public Setup devices(DeviceOptions options, int minimum, String why) {
      devices = b -> options.resolve(b, minimum, why);
      return this;
    }

    /** The devices a resumed run recorded. */
    public Setup devices(DeviceSet recorded) {
      devices = b -> recorded;
      return this;
    }

    /** The devices as {@code resolve} finds them on the backend (apply: those its placement file uses). */
    public Setup devices(Function<LatencyBackend, DeviceSet> resolve) {
      devices = resolve;
      return this;
    }

    /** The {@code --memory} capacities, which must name only the session's devices. */
    public Setup memory(MemoryOptions v) {
      memoryOptions = v;
      return this;
    }

    /**
     * The {@code --memory} capacities, which may name devices the session does not use (apply: a
     * placement need not use every device capped); nothing is refused for not fitting, it is reported.
     */
    public Setup memoryBeyondDevices(MemoryOptions v) {
      memoryOptions = v;
      memoryBeyondDevices = true;
      return this;
    }

    /**
     * The cost model to plan with; a required one that cannot be had is bad input, an optional one
     * ({@link ProxyChoice#AUTO}) that the backend lacks makes a cold search (said through the notices).
     *
     * @param errorPrefix put before the message of a profile that cannot be read, e.g. {@code --proxy-profile: }
     */
    public Setup proxy(ProxyChoice choice, boolean required, String errorPrefix) {
      proxyChoice = choice;
      proxyRequired = required;
      proxyErrorPrefix = errorPrefix;
      return this;
    }

    /** Where the session's notices go (what auto chose, a dynamic model's sizes, memory remarks). */
    public Setup notices(Consumer<String> v) {
      notices = v;
      return this;
    }

    /**
     * Whether what is worth knowing about the model (a dynamic model's sizes, an old IR version) is
     * said through the notices; bench says it per model itself.
     */
    public Setup announceModel(boolean v) {
      announceModel = v;
      return this;
    }

    /**
     * Decorators: {@code opened} around the backend as opened (timing the native calls), {@code capped}
     * around it once it has its memory capacities (load watching).
     */
    public Setup decorate(UnaryOperator<LatencyBackend> opened, UnaryOperator<LatencyBackend> capped) {
      decorateOpened = opened;
      decorate = capped;
      return this;
    }

    /** How the model is bound to the backend, returning the graph the session holds. */
    public Setup binding(BiFunction<LatencyBackend, OpGraph, OpGraph> v) {
      binding = v;
      return this;
    }

    /** A check or preparation of the bound backend before anything builds its cost model (a resumed run's). */
    public Setup beforeModel(Consumer<LatencyBackend> v) {
      beforeModel = v;
      return this;
    }

    /** A step once the devices and memory capacities are resolved, before the cost model is built (a new run begins). */
    public Setup beforeCostModel(BiConsumer<LatencyBackend, DeviceSet> v) {
      beforeCostModel = v;
      return this;
    }

    /** What a stop while the cost model is measured prints (a tune's run folder keeps what was measured). */
    public Setup buildStopLine(String v) {
      buildStopLine = v;
      return this;
    }

    /**
     * Reuses a real backend's cost model saved by an earlier plan or tune of the same model, devices
     * and sizes, else saves the one built now ({@code null}: neither).
     */
    Setup costModelReuse(CostModelReuse v) {
      costModelReuse = v;
      return this;
    }

    /** Measures with {@code backend} instead of opening one (tests, embedding); it is used as it is and not closed. */
    public Setup injected(LatencyBackend backend) {
      injected = backend;
      return this;
    }

    /**
     * Opens the backend, binds the model, resolves the devices, applies the memory capacities, the
     * decorators and the objective, checks the memory and resolves the cost model, in that order;
     * closes what it opened when any step fails.
     *
     * @throws UserInputException for anything the options got wrong
     */
    public Session open() {
      LatencyBackend backend = injected != null ? injected
          : decorateOpened.apply(BackendOptions.open(request, notices));
      try {
        OpGraph bound = binding.apply(backend, graph);
        requireInputSizes(backend, bound);
        String shapeNotice = request.inputShapes().notice();
        if (injected == null && announceModel && shapeNotice != null) {
          notices.accept(shapeNotice); // once the sizes are taken: a refusal stays one line
        }
        if (announceModel) {
          ModelNotes.announce(bound, backend, notices);
        }
        beforeModel.accept(backend);
        if (costModelReuse != null) {
          costModelReuse.before(backend, bound);
        }
        DeviceSet ds = devices.apply(backend);
        if (injected == null) {
          if (!memoryBeyondDevices) {
            memoryOptions.requireWithin(ds);
          }
          LatencyBackend opened = backend;
          backend = null; // apply closes what it refuses
          backend = memoryOptions.apply(opened);
          backend = decorate.apply(backend);
        }
        LatencyBackend measuring = measures ? ObjectiveOptions.measuring(objective, backend) : backend;
        MemoryCheck check = memoryBeyondDevices ? memoryOptions.checkIgnoringOtherDevices(measuring, bound, ds)
            : memoryOptions.check(measuring, bound, ds, notices);
        beforeCostModel.accept(backend, ds);
        Proxies.Resolved resolved = resolveProxy(measuring, bound, ds, check);
        if (costModelReuse != null) {
          costModelReuse.after(measuring, bound);
        }
        return new Session(this, bound, backend, measuring, ds, check, resolved);
      } catch (RuntimeException e) {
        if (injected == null && backend != null) {
          backend.close();
        }
        throw e;
      }
    }

    /**
     * Refuses input sizes before anything is compiled: on the simulator by its per-tensor bound; on a
     * real runtime by the runtime's own shape inference, then by the memory they need.
     */
    private void requireInputSizes(LatencyBackend backend, OpGraph bound) {
      if (backend.simulated()) {
        String problem = request.inputShapes().simulatorBoundProblem(bound);
        if (problem != null) {
          throw new UserInputException(problem);
        }
        return;
      }
      backend.capability(org.hsdag.backend.CostModelSource.class).flatMap(s -> s.runtimeBoundaryOracle(bound))
          .flatMap(org.hsdag.cost.BoundaryOracle::inputSizeProblem).ifPresent(m -> {
            throw new UserInputException(m);
          });
      requireMemoryFor(bound);
    }

    /** Refuses, before anything is compiled, input sizes whose weights and activations exceed the memory available. */
    private void requireMemoryFor(OpGraph bound) {
      java.util.OptionalLong available = InputMemory.availableBytes(InputMemory.MEMINFO);
      if (available.isEmpty()) {
        return;
      }
      List<String> sizes = new ArrayList<>();
      request.inputShapes().sizes().forEach((name, dims) -> sizes.add(name + "="
          + java.util.Arrays.stream(dims).mapToObj(Long::toString).collect(java.util.stream.Collectors.joining("x"))));
      InputMemory.estimate(bound, request.inputShapes().shapes())
          .refusal(available.getAsLong(), String.join(", ", sizes))
          .ifPresent(m -> {
            throw new UserInputException(m);
          });
    }

    private Proxies.Resolved resolveProxy(LatencyBackend measuring, OpGraph bound, DeviceSet ds, MemoryCheck check) {
      if (ProxyChoice.NONE.equals(proxyChoice)) {
        return null;
      }
      String profile = proxyChoice instanceof ProxyChoice.Profile p ? p.nameOrPath() : null;
      Proxies.Resolved r;
      try {
        r = CostModelBuild.run(CostModelBuild.measuresFirst(measuring, bound, profile), measuring, bound, notices,
            buildStopLine, () -> Proxies.resolve(measuring, bound, ds, profile, request.inputShapes().shapes()));
      } catch (ProxyUnavailableException e) {
        if (proxyRequired || profile != null) {
          throw new UserInputException(e.getMessage());
        }
        notices.accept("no cost model to plan with (" + e.getMessage() + "); the search starts cold");
        return null;
      } catch (IllegalArgumentException e) {
        throw new UserInputException(proxyErrorPrefix + e.getMessage());
      }
      r = new Proxies.Resolved(r.proxy().withMemory(check), r.source());
      // A backend measuring throughput gave a throughput cost model already; a latency backend's is converted.
      return measures ? r : ObjectiveOptions.proxy(objective, r, ds);
    }
  }
}
