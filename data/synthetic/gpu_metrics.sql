-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- GPU metrics: one process, one GPU, three kernels (two GEMM-like), GPU_METRICS samples of
-- 'GPC Clock Frequency [MHz]', 'SMs Active [Throughput %]' and 'Tensor Active [Throughput %]', two of them with a
-- negative timestamp. Schema 3.16.1 (nsys 2024.6).
-- CREATE TABLE statements are copied from real exports (sqlite3 .schema of shared/data/nsys/*.sqlite) or,
-- for tables none of them has, from NVIDIA's documented export schema. Times are ns since the session start.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
CREATE TABLE TARGET_INFO_GPU_METRICS (
    -- GPU Metrics, metric names and ids.

    typeId                      INTEGER   NOT NULL,                    -- REFERENCES GENERIC_EVENT_TYPES(typeId)
    sourceId                    INTEGER   NOT NULL,                    -- REFERENCES GENERIC_EVENT_SOURCES(sourceId)
    typeName                    TEXT      NOT NULL,                    -- Name of event type.
    metricId                    INTEGER   NOT NULL,                    -- Id of metric in event; not assumed to be stable.
    metricName                  TEXT      NOT NULL                     -- Definitive name of metric.
);
CREATE TABLE GPU_METRICS (
    -- GPU Metrics, events and values.

    timestamp                   INTEGER,                               -- Event timestamp (ns).
    typeId                      INTEGER   NOT NULL,                    -- REFERENCES TARGET_INFO_GPU_METRICS(typeId) and GENERIC_EVENT_TYPES(typeId)
    metricId                    INTEGER   NOT NULL,                    -- REFERENCES TARGET_INFO_GPU_METRICS(metricId)
    value                       INTEGER   NOT NULL                     -- Counter data value
);


-- One process (pid 4242) on one host; globalPid = (1 << 48) | (4242 << 24), main thread tid 4242.
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'ampere_sgemm_128x64_nn'),
    (3, 'void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)'),
    (4, 'Kernel'),
    (5, 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char *, 3>)'),
    (6, 'vectorized_elementwise_kernel'),
    (7, 'synthetic_gemm');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_gpu_metrics.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '2023-11-14T22:13:20', '2023-11-14T22:13:20');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'synth-gpu-node');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 12000, 0, 12000);
INSERT INTO PROCESSES VALUES (281546145660928, 4242, 'synthetic_gemm');
INSERT INTO ThreadNames VALUES (7, 20, 281546145665170);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (800, 1500, 0, 281546145665170, 101, 1, 0, NULL),
    (5200, 5600, 0, 281546145665170, 102, 1, 0, NULL),
    (9100, 9300, 0, 281546145665170, 103, 1, 0, NULL);

INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES
    (2000, 5000, 0, 1, NULL, 7, 101, 281546145660928, 2, 2, NULL, 1, 0, 128, 64, 32, 1, 256, 1, 1, 16384, 0, 0, 0, 1, 32768, NULL, 0),
    (6000, 9000, 0, 1, NULL, 7, 102, 281546145660928, 3, 4, NULL, 1, 0, 232, 108, 1, 1, 128, 1, 1, 0, 73728, 0, 0, 2, 167936, NULL, 0),
    (9500, 10000, 0, 1, NULL, 7, 103, 281546145660928, 5, 6, NULL, 1, 0, 16, 1024, 1, 1, 128, 1, 1, 0, 0, 0, 0, 3, 0, NULL, 0);

-- GPU 0 is typeId 1. The metricIds are deliberately not the positions of these names in any catalogue:
-- readers must match metrics by name.
INSERT INTO TARGET_INFO_GPU_METRICS VALUES
    (1, 1, 'GPU 0 metrics (synthetic)', 0, 'GPC Clock Frequency [MHz]'),
    (1, 1, 'GPU 0 metrics (synthetic)', 12, 'SMs Active [Throughput %]'),
    (1, 1, 'GPU 0 metrics (synthetic)', 14, 'Tensor Active [Throughput %]');
-- timestamp, typeId, metricId, value. The two samples at -400 precede the session start (nsys does write such
-- samples): a translator must drop or clamp them and say so.
INSERT INTO GPU_METRICS VALUES
    (-400, 1, 12, 3),
    (-400, 1, 14, 0),
    (1000, 1, 0, 1755),
    (1000, 1, 12, 0),
    (1000, 1, 14, 0),
    (3000, 1, 0, 1755),
    (3000, 1, 12, 95),
    (3000, 1, 14, 61),
    (7000, 1, 0, 1980),
    (7000, 1, 12, 88),
    (7000, 1, 14, 72),
    (11000, 1, 0, 1980),
    (11000, 1, 12, 2),
    (11000, 1, 14, 0);
COMMIT;
